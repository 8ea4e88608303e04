/* test_charge.c: unit tests of the charge identity (charge.c): canonical decimals, the field encoding. */
#include "unit.h"
#include "core/charge.h"

#include <stdlib.h>

static const char *
canon(const char *s)
{
	static char out[128];

	if (le_decimal_canon(s, strlen(s), out) < 0)
		return "(not a decimal)";
	return out;
}

/* The identity digest of up to 3 fields (NULL: a NULL field), as hex. */
static const char *
id3(const char *a, const char *b, const char *c)
{
	static char hex[33];
	const char *f[3] = {a, b, c};
	le_charge_id id;
	unsigned char d[16];

	le_charge_id_init(&id);
	for (int i = 0; i < 3; i++)
		le_charge_id_field(&id, f[i], f[i] ? strlen(f[i]) : 0);
	le_charge_id_final(&id, d);
	le_md5_hex(d, hex);
	return hex;
}

void
test_charge(void)
{
	/* the same number, the same text */
	static const char *const same[][2] = {
		{"2", "2.000"}, {"2", "2e0"}, {"2", "0.2E1"}, {"2", "+2"}, {"2", "002."}, {"0.5", ".5"},
		{"1200", "1.2e3"}, {"0.00123", "1.23e-3"}, {"0", "-0"}, {"0", "0.000e5"}, {"-1.5", "-15E-1"},
		{"123.45", "12345e-2"}, {"0.0000004", "4e-7"},
	};
	/* different numbers, different texts */
	static const char *const differ[][2] = {
		{"2", "-2"}, {"2", "20"}, {"2", "0.2"}, {"12", "1.2"}, {"1", "1.0000000000000000000001"}, {"0", "1e-999"},
	};
	static const char *const bad[] = {"", "-", ".", "e5", "1e", "1e1234", "1.2.3", "1,5", " 1", "1 ", "0x10", "NaN",
	"Infinity", "1e+-2"};

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
	{
		char		a[128];

		strcpy(a, canon(same[i][0]));
		CHECK(strcmp(a, canon(same[i][1])) == 0, "canon(%s) = %s, canon(%s) = %s", same[i][0], a, same[i][1],
			  canon(same[i][1]));
	}
	for (size_t i = 0; i < sizeof(differ) / sizeof(differ[0]); i++)
	{
		char		a[128];

		strcpy(a, canon(differ[i][0]));
		CHECK(strcmp(a, canon(differ[i][1])) != 0, "canon(%s) = canon(%s) = %s", differ[i][0], differ[i][1], a);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(strcmp(canon(bad[i]), "(not a decimal)") == 0, "canon(\"%s\") = %s, want an error", bad[i], canon(bad[i]));
	/* the form itself: the digits without leading or trailing zeros, then the exponent of 0.digits */
	CHECK(strcmp(canon("-0012.3400"), "-1234e2") == 0, "canon(-0012.3400) = %s", canon("-0012.3400"));
	CHECK(strcmp(canon("0.05"), "5e-1") == 0, "canon(0.05) = %s", canon("0.05"));

	/* mantissa and scale, the display scale numeric_in gives (trailing zeros kept) */
	{
		static const struct
		{
			const char *s;
			int			rc;
			long long	m;
			int			scale;
		}			parse[] = {
			{"2.50", 1, 250, 2}, {"12e3", 1, 12, -3}, {"-0.00120", 1, -120, 5}, {"0", 1, 0, 0}, {"000", 1, 0, 0},
			{".5", 1, 5, 1}, {"1.20e-3", 1, 120, 5}, {"+7.", 1, 7, 0}, {"123456789012345678", 1, 123456789012345678LL, 0},
			{"0.000000000000000000001", 1, 1, 21}, {"1234567890123456789", 0, 0, 0}, {"1.000000000000000000", 0, 0, 0},
			{"abc", -1, 0, 0}, {"1e1234", -1, 0, 0}, {"", -1, 0, 0},
		};

		for (size_t i = 0; i < sizeof(parse) / sizeof(parse[0]); i++)
		{
			int64_t		m = 0;
			int			sc = 0;
			int			rc = le_decimal_parse(parse[i].s, strlen(parse[i].s), &m, &sc);

			CHECK(rc == parse[i].rc && (rc != 1 || (m == parse[i].m && sc == parse[i].scale)),
				  "parse(\"%s\") = %d, %lld, %d; want %d, %lld, %d", parse[i].s, rc, (long long) m, sc,
				  parse[i].rc, parse[i].m, parse[i].scale);
		}
	}

	/* fields: a byte moved across a boundary, NULL against '', and the order all change the digest */
	{
		char		a[33];

		strcpy(a, id3("ab", "c", "x"));
		CHECK(strcmp(a, id3("a", "bc", "x")) != 0, "field boundary");
		strcpy(a, id3(NULL, "c", "x"));
		CHECK(strcmp(a, id3("", "c", "x")) != 0, "NULL != ''");
		strcpy(a, id3("a", "b", "c"));
		CHECK(strcmp(a, id3("b", "a", "c")) != 0, "order");
		CHECK(strcmp(a, id3("a", "b", "c")) == 0, "deterministic");
		/* the encoding itself: the length 1 in a byte, then the byte; three times */
		{
			static const unsigned char enc[] = {1, 'a', 1, 'b', 1, 'c'};
			unsigned char d[16];
			char		hex[33];

			le_md5_bytes(enc, sizeof(enc), d);
			le_md5_hex(d, hex);
			CHECK(strcmp(a, hex) == 0, "encoding: got %s, want %s", a, hex);
		}
	}
	/* fields longer than the gathering buffer, and many fields: the digest of their encoding */
	{
		static char big[3000];
		unsigned char *enc = malloc(40 * (5 + sizeof(big)));
		size_t		n = 0;
		le_charge_id id;
		unsigned char d1[16],
					d2[16];

		for (size_t i = 0; i < sizeof(big); i++)
			big[i] = (char) ('a' + i % 26);
		le_charge_id_init(&id);
		for (int f = 0; f < 40; f++)
		{
			size_t		len = (size_t) (f * 97) % sizeof(big);	/* 0 .. 2,910 bytes */

			if (f % 7 == 6)
			{
				le_charge_id_field(&id, NULL, 0);	/* a NULL: 0xFF */
				enc[n++] = 0xFF;
				continue;
			}
			le_charge_id_field(&id, big, len);
			if (len < 0xFE)
				enc[n++] = (unsigned char) len;
			else
			{
				enc[n++] = 0xFE;
				for (int b = 0; b < 4; b++)
					enc[n++] = (unsigned char) (len >> (8 * b));
			}
			memcpy(enc + n, big, len);
			n += len;
		}
		le_charge_id_final(&id, d1);
		le_md5_bytes(enc, n, d2);
		CHECK(memcmp(d1, d2, 16) == 0, "40 fields of up to 2,910 bytes, some NULL");
		free(enc);
	}
}
