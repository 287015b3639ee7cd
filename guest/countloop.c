// SPDX-License-Identifier: GPL-2.0
/*
 * countloop: a program whose user instructions are known exactly, for the
 * perf-hw suite.  No libc: from _start it loads argc, runs a two-
 * instruction loop argc * 100,000 times and exits, touching no memory but
 * the argc word the kernel put on its stack.  Each run retires
 * 7 + 200,000 * argc user instructions on arm64 (4 before the loop,
 * 3 after it) and 5 + 200,000 * argc on x86_64 (2 before, 3 after).
 * Short on purpose: under -icount shift=0 a run of 3 takes 0.6 ms of
 * guest time, so that a timer tick (4 ms apart), whose handler QEMU may
 * count in part as user instructions, seldom lands inside it.
 */
void _start(void)
{
#ifdef __aarch64__
	asm volatile("ldr x1, [sp]\n\t"
		     "movz x2, #0x86a0\n\t"
		     "movk x2, #0x1, lsl #16\n\t"
		     "mul x1, x1, x2\n"
		     "1:\tsubs x1, x1, #1\n\t"
		     "b.ne 1b\n\t"
		     "mov x0, #0\n\t"
		     "mov x8, #93\n\t"
		     "svc #0");
#else
	asm volatile("mov (%rsp), %rcx\n\t"
		     "imul $100000, %rcx, %rcx\n"
		     "1:\tdec %rcx\n\t"
		     "jnz 1b\n\t"
		     "xor %edi, %edi\n\t"
		     "mov $60, %eax\n\t"
		     "syscall");
#endif
	for (;;)
		;
}
