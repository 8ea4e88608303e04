/* gcp_hosts.h: the shipped GCP machine families (data/gcp_machine_family.csv) and GPU sizes (data/instance_type.csv) as the catalog parser receives them, for the C tests. */
#ifndef LE_TEST_GCP_HOSTS_H
#define LE_TEST_GCP_HOSTS_H

#include "core/catalog.h"

static const le_gcp_family test_gcp_family[] = {
	{"a2-highgpu-", "A100", NULL}, {"a2-megagpu-", "A100", NULL}, {"a2-ultragpu-", "A100-80GB", NULL},
	{"a3-edgegpu-", "H100", NULL}, {"a3-highgpu-", "H100", NULL}, {"a3-megagpu-", "H100-MEGA", "H100"},
	{"a3-ultragpu-", "H200", NULL}, {"a4-highgpu-", "B200", NULL}, {"g2-standard-", "L4", NULL},
};
static const le_gcp_size test_gcp_size[] = {
	{"g2-standard-4", 1}, {"g2-standard-8", 1}, {"g2-standard-12", 1}, {"g2-standard-16", 1},
	{"g2-standard-24", 2}, {"g2-standard-32", 1}, {"g2-standard-48", 4}, {"g2-standard-96", 8},
};
static const char *const test_gcp_attach[] = {"K80", "P100", "P4", "T4", "V100"};
static const le_gcp_hosts test_gcp_hosts = {
	test_gcp_family, (int) (sizeof(test_gcp_family) / sizeof(test_gcp_family[0])),
	test_gcp_size, (int) (sizeof(test_gcp_size) / sizeof(test_gcp_size[0])),
	test_gcp_attach, (int) (sizeof(test_gcp_attach) / sizeof(test_gcp_attach[0])),
};

#endif
