/* SPDX-License-Identifier: GPL-2.0 */
/* The PERF_EVENT_IOC_* ioctls of an event fd (ioctl.c). */
#ifndef _KERNEL_EVENTS_IOCTL_H
#define _KERNEL_EVENTS_IOCTL_H

long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
#ifdef CONFIG_COMPAT
long perf_compat_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg);
#else
#define perf_compat_ioctl NULL
#endif

#endif /* _KERNEL_EVENTS_IOCTL_H */
