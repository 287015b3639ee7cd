// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest instructions executed at each
 * translation block's start address, for scripts/insn-profile.sh.
 *
 * Each translated block gets a counter bumped inline every time it runs;
 * at exit, "ADDRESS INSNS RUNS" lines (instructions executed in the
 * block and how often it ran, over all its translations) go to the file
 * named by the out= argument.
 * Only the plugin ABI of QEMU 7.2 (plugin API version 1) is used, declared
 * here so that no QEMU headers are needed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
	const char *target_name;
	struct { int min, cur; } version;
	int system_emulation;	/* bool in QEMU; unused here */
} qemu_info_t;
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
enum { INLINE_ADD_U64 = 0 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      int op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb,
				    void *userdata);

EXPORT int qemu_plugin_version = 1;

struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs;
};

#define CHUNK	(1 << 16)

/* blocks live in never-freed chunks: inline counters point into them */
static struct block **chunks;
static size_t nr_blocks, nr_chunks;
static const char *out_path = "insn-profile.txt";

static struct block *new_block(void)
{
	struct block *b;

	if (nr_blocks == nr_chunks * CHUNK) {
		chunks = realloc(chunks, (nr_chunks + 1) * sizeof(*chunks));
		chunks[nr_chunks] = calloc(CHUNK, sizeof(struct block));
		if (!chunks[nr_chunks])
			abort();
		nr_chunks++;
	}
	b = &chunks[nr_blocks / CHUNK][nr_blocks % CHUNK];
	nr_blocks++;
	return b;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = new_block();

	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, INLINE_ADD_U64,
						 &b->runs, 1);
}

static void write_profile(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	if (!f)
		return;
	for (i = 0; i < nr_blocks; i++) {
		struct block *b = &chunks[i / CHUNK][i % CHUNK];

		if (b->runs)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)b->vaddr,
				(unsigned long long)(b->runs * b->insns),
				(unsigned long long)b->runs);
	}
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_profile, NULL);
	return 0;
}
