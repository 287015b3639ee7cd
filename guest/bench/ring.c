// SPDX-License-Identifier: GPL-2.0
/*
 * ring.c - the ring buffer helpers of the sampling, side-band and PMU
 * groups: map a sampling event's buffer and consume its records.  It
 * measures nothing itself.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

void ring_map(struct ring *r, int fd, size_t data_size)
{
	size_t pgsz = sysconf(_SC_PAGESIZE);

	r->fd = fd;
	r->data_size = data_size;
	r->base = mmap(NULL, pgsz + data_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED)
		die("mmap ring");
	r->pg = r->base;
}

void ring_unmap(struct ring *r)
{
	munmap(r->base, sysconf(_SC_PAGESIZE) + r->data_size);
}

/* Consume every record; count samples and lost records. */
void ring_drain(struct ring *r, uint64_t *samples, uint64_t *lost,
		uint64_t *other)
{
	char *data = (char *)r->base + sysconf(_SC_PAGESIZE);
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pg->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail % r->data_size;

		if (off + sizeof(h) <= r->data_size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t first = r->data_size - off;

			memcpy(&h, data + off, first);
			memcpy((char *)&h + first, data, sizeof(h) - first);
		}
		if (h.size == 0)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			(*samples)++;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t v[2];
			size_t o = (off + sizeof(h)) % r->data_size;

			for (int i = 0; i < 2; i++) {
				if (o + 8 <= r->data_size)
					memcpy(&v[i], data + o, 8);
				else
					v[i] = 0;
				o = (o + 8) % r->data_size;
			}
			*lost += v[1];
		} else if (other) {
			(*other)++;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}
