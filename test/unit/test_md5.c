/* test_md5.c: unit tests of the core's MD5 (md5.c): the RFC 1321 test suite, padding boundaries, split updates. */
#include "unit.h"
#include "core/md5.h"

static const char *
md5_of(const void *data, size_t n)
{
	static char hex[33];
	unsigned char d[16];

	le_md5_bytes(data, n, d);
	le_md5_hex(d, hex);
	return hex;
}

/* The bytes (7 i + 3) mod 256, i = 0..n-1: a message with every byte value. */
static void
fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char) ((i * 7 + 3) & 255);
}

void
test_md5(void)
{
	/* RFC 1321, appendix A.5 */
	static const char *const suite[][2] = {
		{"", "d41d8cd98f00b204e9800998ecf8427e"},
		{"a", "0cc175b9c0f1b6a831c399e269772661"},
		{"abc", "900150983cd24fb0d6963f7d28e17f72"},
		{"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
		{"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		 "57edf4a22be3c955ac49da2e2107b67a"},
	};
	/* lengths around the padding's boundaries (56 and 64 bytes), computed with Python's hashlib */
	static const struct
	{
		size_t		n;
		const char *hex;
	}			lengths[] = {
		{55, "52c0e574e1198de5fe3f8f11440dcb1b"}, {56, "46c9907fc908ee68b1e7b8e71286a518"},
		{63, "a62f6d59e837867693f042f5b8f5a236"}, {64, "7160b8fb5e9e4023d549c3971fbaeead"},
		{65, "70bd662e7aefbda85a0f7244167b7897"}, {119, "e84905d4214f4d1ca56c2cdcc152b143"},
		{120, "e3eb5a6c8669ea01a8c185b8abc8a5dc"}, {1000, "10046f077f2082ac19676b8079f1cb1a"},
	};
	unsigned char msg[1000];

	for (size_t i = 0; i < sizeof(suite) / sizeof(suite[0]); i++)
		CHECK(strcmp(md5_of(suite[i][0], strlen(suite[i][0])), suite[i][1]) == 0,
			  "md5(\"%s\"): got %s, want %s", suite[i][0], md5_of(suite[i][0], strlen(suite[i][0])), suite[i][1]);
	fill(msg, sizeof(msg));
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
		CHECK(strcmp(md5_of(msg, lengths[i].n), lengths[i].hex) == 0,
			  "md5 of %zu bytes: got %s, want %s", lengths[i].n, md5_of(msg, lengths[i].n), lengths[i].hex);

	/* the message in two updates, split anywhere, and in bytes one at a time: the same digest */
	{
		unsigned char whole[16];
		int			bad = 0;

		le_md5_bytes(msg, 200, whole);
		for (size_t cut = 0; cut <= 200; cut++)
		{
			le_md5		m;
			unsigned char d[16];

			le_md5_init(&m);
			le_md5_update(&m, msg, cut);
			le_md5_update(&m, msg + cut, 200 - cut);
			le_md5_final(&m, d);
			bad += memcmp(d, whole, 16) != 0;
		}
		CHECK(bad == 0, "md5 in two updates: %d of 201 cuts differ", bad);
		{
			le_md5		m;
			unsigned char d[16];

			le_md5_init(&m);
			for (size_t i = 0; i < 200; i++)
				le_md5_update(&m, msg + i, 1);
			le_md5_final(&m, d);
			CHECK(memcmp(d, whole, 16) == 0, "md5 a byte at a time");
		}
	}
}
