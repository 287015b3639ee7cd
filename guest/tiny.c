// SPDX-License-Identifier: GPL-2.0
/* tiny.c - the smallest program `make bench` execs: exit(0), no libc. */
void _start(void)
{
#ifdef __aarch64__
	asm volatile("mov x0, #0\n\tmov x8, #93\n\tsvc #0");
#else
	asm volatile("xor %edi, %edi\n\tmov $60, %eax\n\tsyscall");
#endif
	for (;;)
		;
}
