/* unit.h: the tiny assertion harness shared by the core's unit tests (one binary, one summary line). */
#ifndef LLM_ECON_UNIT_H
#define LLM_ECON_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/econ.h"

extern int	passed,
			failed;

#define CHECK(cond, ...) \
	do { \
		if (cond) passed++; \
		else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
	} while (0)

/* |got - want| <= tol · |want| */
#define NEAR(got, want, tol, what) \
	CHECK(fabs((got) - (want)) <= (tol) * fabs((double) (want)), "%s: got %.10g, want %.10g", what, (double) (got), (double) (want))

/* a valid spec with the given size and hardware figures (test_core.c) */
extern le_spec unit_spec(double n, double d, int g, int gpn, double tflops, double mfu, double tdp);

/* test files other than test_core.c */
extern void test_csv(void);
extern void test_bill(void);
extern void test_guard(void);
extern void test_series(void);
extern void test_md5(void);
extern void test_charge(void);
extern void test_step(void);
extern void test_step_spec(void);
extern void test_rent(void);

#endif
