/* test_csv.c: unit tests of the core's CSV reader (placeholder until the reader lands). */
#include "unit.h"

void
test_csv(void)
{
}
