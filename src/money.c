/* money.c: numeric (USD) argument checks and the float8 hours × numeric price product. */
#include "llm_econ.h"

#include "utils/builtins.h"
#include "utils/memutils.h"

/* numeric 0, made once per backend. */
static Datum
numeric_zero(void)
{
	static Numeric zero = NULL;

	if (zero == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		zero = int64_to_numeric(0);
		MemoryContextSwitchTo(old);
	}
	return NumericGetDatum(zero);
}

/* A price must be a finite numeric >= 0 (22023 naming the argument otherwise). */
void
le_check_price(Numeric price, const char *name)
{
	if (numeric_is_nan(price) || numeric_is_inf(price) ||
		DatumGetBool(DirectFunctionCall2(numeric_lt, NumericGetDatum(price), numeric_zero())))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be in [0, Infinity), got %s", name,
						DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(price))))));
}

/* A checked, finite float8 as numeric, as float8::numeric gives it (15 significant digits). */
Datum
le_float8_numeric(double v)
{
	return DirectFunctionCall1(float8_numeric, Float8GetDatum(v));
}

/* hours (a checked, finite float8) times a USD price, in numeric. */
Numeric
le_hours_times_price(double hours, Numeric price)
{
	Datum		h = le_float8_numeric(hours);

	return DatumGetNumeric(DirectFunctionCall2(numeric_mul, h, NumericGetDatum(price)));
}

/* A numeric quantity (a Datum, e.g. cached GPU-hours) times a USD price. */
Numeric
le_numeric_times_price(Datum quantity, Numeric price)
{
	return DatumGetNumeric(DirectFunctionCall2(numeric_mul, quantity, NumericGetDatum(price)));
}
