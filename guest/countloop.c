// SPDX-License-Identifier: GPL-2.0
/*
 * countloop: a program whose user instructions are known exactly, for the
 * perf-hw suite.  No libc: from _start it loads argc, runs a two-
 * instruction loop argc million times and exits, touching no memory but
 * the argc word the kernel put on its stack.  Each run retires
 * 7 + 2,000,000 * argc user instructions on arm64 (4 before the loop,
 * 3 after it) and 5 + 2,000,000 * argc on x86_64 (2 before, 3 after).
 */
void _start(void)
{
#ifdef __aarch64__
	asm volatile("ldr x1, [sp]\n\t"
		     "movz x2, #0x4240\n\t"
		     "movk x2, #0xf, lsl #16\n\t"
		     "mul x1, x1, x2\n"
		     "1:\tsubs x1, x1, #1\n\t"
		     "b.ne 1b\n\t"
		     "mov x0, #0\n\t"
		     "mov x8, #93\n\t"
		     "svc #0");
#else
	asm volatile("mov (%rsp), %rcx\n\t"
		     "imul $1000000, %rcx, %rcx\n"
		     "1:\tdec %rcx\n\t"
		     "jnz 1b\n\t"
		     "xor %edi, %edi\n\t"
		     "mov $60, %eax\n\t"
		     "syscall");
#endif
	for (;;)
		;
}
