/* module.c: the loadable module's magic block (one per shared library). */
#include "postgres.h"
#include "fmgr.h"

PG_MODULE_MAGIC;
