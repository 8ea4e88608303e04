/* module.c: the loadable module's magic block and load-time setup: the settings (the llm_econ prefix reserved), and the plain-C core's interrupt hook and hash key. */
#include "postgres.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "llm_econ.h"

#include "core/guard.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* llm_econ.import_providers (llm_econ.h): set by the importers, transaction-local. */
char	   *le_import_providers = NULL;
char	   *le_import_suspects = NULL;

/* llm_econ.run_tag_keys (llm_econ.h): the Tags keys that name a run, read by le_focus_type. */
char	   *le_run_tag_keys = NULL;

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

	/*
	 * The settings the SQL code sets with set_config() while it imports (never
	 * by hand): defined here so that the prefix can be reserved, which makes a
	 * misspelt llm_econ.* setting an error instead of a silent placeholder.
	 */
	DefineCustomStringVariable("llm_econ.import_providers",
							   "Internal: the providers whose prices the running import holds locked (comma-separated).",
							   "Set by the importers for their transaction; empty otherwise.",
							   &le_import_providers, "", PGC_USERSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomStringVariable("llm_econ.import_suspects",
							   "Internal: why the running SkyPilot import finds machine types suspect (a JSON object by instance type).",
							   "Set by import_skypilot_catalog for its transaction; read by the suspect trigger; empty otherwise.",
							   &le_import_suspects, "", PGC_USERSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomStringVariable("llm_econ.run_tag_keys",
							   "The FOCUS Tags keys that name a run (comma-separated).",
							   "A key names the run when, lower-cased and without \"_\", \"-\" and a leading \"user:\", "
							   "it equals one of these treated the same way (user:run_id, Run_ID and RunId are run_id).",
							   &le_run_tag_keys, "run_id", PGC_USERSET, 0, NULL, NULL, NULL);
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("llm_econ");
#else
	EmitWarningsOnPlaceholders("llm_econ");
#endif

	le_provenance_init();
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
