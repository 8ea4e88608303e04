/* test_rent.c: unit tests of le_billed_gpus, the rule by which a run rents whole machines (search.c). */
#include "unit.h"
#include "core/step.h"

void
test_rent(void)
{
	/* issue 45's cases, by hand: 1 GPU on a 1-GPU machine bills 1, on an 8-GPU machine 8 */
	CHECK(le_billed_gpus(1, 1, 8) == 1, "1 GPU on 1-GPU machines: %d", le_billed_gpus(1, 1, 8));
	CHECK(le_billed_gpus(1, 8, 8) == 8, "1 GPU on 8-GPU machines: %d", le_billed_gpus(1, 8, 8));
	/* 12 GPUs on 8-GPU machines: ceil(12 / 8) = 2 machines = 16 GPUs */
	CHECK(le_billed_gpus(12, 8, 8) == 16, "12 GPUs on 8-GPU machines: %d", le_billed_gpus(12, 8, 8));
	/* 3 GPUs: one 4-GPU machine (4), one 8-GPU machine (8); 1- and 2-GPU machines cannot span */
	CHECK(le_billed_gpus(3, 4, 8) == 4, "3 GPUs on 4-GPU machines: %d", le_billed_gpus(3, 4, 8));
	CHECK(le_billed_gpus(3, 8, 8) == 8, "3 GPUs on 8-GPU machines: %d", le_billed_gpus(3, 8, 8));
	CHECK(le_billed_gpus(3, 1, 8) == 0, "3 GPUs on 1-GPU machines: %d", le_billed_gpus(3, 1, 8));
	CHECK(le_billed_gpus(3, 2, 8) == 0, "3 GPUs on 2-GPU machines: %d", le_billed_gpus(3, 2, 8));
	/* 64 GPUs: eight 8-GPU machines; never 64 1-GPU VMs */
	CHECK(le_billed_gpus(64, 8, 8) == 64, "64 GPUs on 8-GPU machines: %d", le_billed_gpus(64, 8, 8));
	CHECK(le_billed_gpus(64, 1, 8) == 0, "64 GPUs on 1-GPU machines: %d", le_billed_gpus(64, 1, 8));
	/* a 16-GPU machine (a2-megagpu-16g) on an 8-GPU NVLink node spans; unknown size bills the run */
	CHECK(le_billed_gpus(20, 16, 8) == 32, "20 GPUs on 16-GPU machines: %d", le_billed_gpus(20, 16, 8));
	CHECK(le_billed_gpus(12, 0, 8) == 12, "12 GPUs of unknown machine size: %d", le_billed_gpus(12, 0, 8));
	/* no run, a negative size, and a count past int */
	CHECK(le_billed_gpus(0, 8, 8) == 0, "0 GPUs: %d", le_billed_gpus(0, 8, 8));
	CHECK(le_billed_gpus(8, -1, 8) == 0, "negative size: %d", le_billed_gpus(8, -1, 8));
	CHECK(le_billed_gpus(2147483647, 1000000, 1) == 0, "past int: %d", le_billed_gpus(2147483647, 1000000, 1));
}
