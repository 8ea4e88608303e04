/* module.c: the loadable module's magic block and load-time setup of the plain-C core (interrupt hook, hash key). */
#include "postgres.h"
#include "fmgr.h"
#include "miscadmin.h"

#include "core/guard.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* The core's long loops land here: statement_timeout, cancel and terminate stop them. */
static void
le_interrupt(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * Load time: the core reaches CHECK_FOR_INTERRUPTS through its hook, and its
 * hash tables get a random key of this backend (guard.h), so catalog rows
 * crafted to collide under one key do not collide here.
 */
void
_PG_init(void)
{
	unsigned char seed[16];

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
