#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
static long long mono(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static long long tcpu(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static int op(__u64 cfg,int g,int dis){struct perf_event_attr a;memset(&a,0,sizeof(a));a.size=sizeof(a);a.type=PERF_TYPE_SOFTWARE;a.config=cfg;a.read_format=PERF_FORMAT_GROUP;a.disabled=dis;return syscall(SYS_perf_event_open,&a,0,-1,g,0);}
int main(int argc,char**argv){
  int iters=argc>1?atoi(argv[1]):60, gap=argc>2?atoi(argv[2]):0, over1=0, over05=0; long long max=-1LL<<62;
  for(int i=0;i<iters;i++){
    int l=op(PERF_COUNT_SW_TASK_CLOCK,-1,1), a=op(PERF_COUNT_SW_PAGE_FAULTS,l,0), b=op(PERF_COUNT_SW_CONTEXT_SWITCHES,l,0);
    __u64 buf[4];
    ioctl(l,PERF_EVENT_IOC_RESET,PERF_IOC_FLAG_GROUP);
    long long t0=mono(); ioctl(l,PERF_EVENT_IOC_ENABLE,0);
    long long e=tcpu()+20000000; while(tcpu()<e){ for(volatile int k=0;k<20000;k++); sched_yield(); }
    ioctl(l,PERF_EVENT_IOC_DISABLE,0); long long t1=mono();
    read(l,buf,sizeof(buf)); long long ex=(long long)buf[1]-(t1-t0);
    if(ex>max)max=ex; if(ex>1000000)over1++; if(ex>500000)over05++;
    close(b);close(a);close(l);
    if(gap) usleep(gap*1000);
  }
  printf("keyflip iters=%d gap=%dms: max excess %lld ns, >0.5ms %d, >1ms %d\n",iters,gap,max,over05,over1);
  return 0;
}
