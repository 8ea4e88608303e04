/* module.c: the loadable module's magic block and load-time setup: the settings, and the plain-C core's interrupt hook and hash key. */
#include "postgres.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "llm_econ.h"

#include "core/guard.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static const struct config_enum_entry typing_worker_options[] = {
	{"off", LE_FW_OFF, false},
	{"auto", LE_FW_AUTO, false},
	{"on", LE_FW_ON, false},
	{NULL, 0, false}
};

/* The core's long loops land here: statement_timeout, cancel and terminate stop them. */
static void
le_interrupt(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * Load time: the settings; the core reaches CHECK_FOR_INTERRUPTS through its hook, and its
 * hash tables get a random key of this backend (guard.h), so catalog rows
 * crafted to collide under one key do not collide here.
 */
void
_PG_init(void)
{
	unsigned char seed[16];

	DefineCustomEnumVariable("llm_econ.focus_typing_worker",
							 "Whether load_focus types a large staged file in a background worker.",
							 "auto: when the staged file takes at least 8 MB of focus_staging; on: whatever the size; off: never.  "
							 "It is counted as a parallel worker; without a free one (max_parallel_workers, max_worker_processes) the session types the lines itself.",
							 &le_focus_typing_worker, LE_FW_AUTO, typing_worker_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);

	le_interrupt_hook = le_interrupt;
	if (pg_strong_random(seed, sizeof(seed)))
		le_hash_set_seed(seed);
	else
	{
		/* no strong random source: still vary the key per backend */
		uint64		mix = (uint64) MyProcPid * UINT64CONST(0x9E3779B97F4A7C15) ^ (uint64) MyStartTimestamp;

		memcpy(seed, &mix, 8);
		mix = mix * UINT64CONST(6364136223846793005) + 1442695040888963407ULL;
		memcpy(seed + 8, &mix, 8);
		le_hash_set_seed(seed);
	}
}
