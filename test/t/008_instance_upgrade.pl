# TAP test: catalog prices 0.3.0 stored with a catalog's wrong GPU count, name or whole-GPU slice are corrected by ALTER EXTENSION llm_econ UPDATE to 0.4.0 (instance_type).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('instances');
$node->init;
$node->append_conf('postgresql.conf', "timezone = 'UTC'\nlog_statement = none\n");
$node->start;
sub q1 { my ($sql) = @_; return $node->safe_psql('postgres', $sql); }

# What 0.3.0's import_skypilot_catalog stored for rows of skypilot-catalog catalogs/v5/azure/vms.csv at
# commit 3f5f697 (test/data/skypilot/azure_gpu_3f5f697.csv; ND96isr corrected to 8 by 0.3.0's alias,
# ND96is divided by the catalog's 12, the NVL stored as SXM, the 1/6 slice as a whole A10), written
# directly: 0.3.0's importer itself no longer runs on this library (its llm_econ.import_kind setting is gone).
q1(q{CREATE EXTENSION llm_econ VERSION '0.3.0'});
q1(q{INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source, source_kind)
     SELECT '2025-01-01', 'azure', v.sku, v.region, k.pricing, CASE k.pricing WHEN 'on_demand' THEN v.od ELSE v.spot END, v.it, v.n,
            'SkyPilot catalog vms.csv (azure)', 'catalog'
       FROM (VALUES ('Standard_NC40ads_H100_v5', 'H100-SXM5', 'eastus', 6.98, 6.98, 1),
                    ('Standard_ND96isr_H100_v5', 'H100-SXM5', 'eastus', 12.29, 12.29, 8),
                    ('Standard_ND96is_H100_v5', 'H100-SXM5', 'eastus2', 7.374, 7.374, 12),
                    ('Standard_NV6ads_A10_v5', 'A10', 'eastus', 0.454, 0.1135, 1),
                    ('Standard_NV36ads_A10_v5', 'A10', 'eastus', 3.20, 0.80, 1)) AS v(it, sku, region, od, spot, n)
      CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)});
my $prices = q{SELECT string_agg(format('%s %s %s %s %s', instance_type, sku, pricing, usd_per_gpu_hour, coalesce(gpus_per_instance::text, '-')), E'\n' ORDER BY instance_type, pricing)
                 FROM llm_econ.price_snapshot WHERE provider = 'azure'};
is(q1($prices), join("\n",
   'Standard_NC40ads_H100_v5 H100-SXM5 on_demand 6.98 1', 'Standard_NC40ads_H100_v5 H100-SXM5 spot 6.98 1',
   'Standard_ND96is_H100_v5 H100-SXM5 on_demand 7.374 12', 'Standard_ND96is_H100_v5 H100-SXM5 spot 7.374 12',
   'Standard_ND96isr_H100_v5 H100-SXM5 on_demand 12.29 8', 'Standard_ND96isr_H100_v5 H100-SXM5 spot 12.29 8',
   'Standard_NV36ads_A10_v5 A10 on_demand 3.20 1', 'Standard_NV36ads_A10_v5 A10 spot 0.80 1',
   'Standard_NV6ads_A10_v5 A10 on_demand 0.454 1', 'Standard_NV6ads_A10_v5 A10 spot 0.1135 1'),
   '0.3.0 stores ND96is with 12 GPUs, the H100 NVL as SXM, the 1/6 slice as a whole A10');

q1(q{ALTER EXTENSION llm_econ UPDATE TO '0.4.0'});   # the released step (frozen, src/update)
is(q1(q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), '0.4.0', 'updated to 0.4.0');
# by hand from the CSV: 88.488 / 8 = 11.061; 0.454 / (1/6) = 2.724, 0.1135 * 6 = 0.681
is(q1($prices), join("\n",
   'Standard_NC40ads_H100_v5 H100-NVL on_demand 6.98 1', 'Standard_NC40ads_H100_v5 H100-NVL spot 6.98 1',
   'Standard_ND96is_H100_v5 H100-SXM5 on_demand 11.061 8', 'Standard_ND96is_H100_v5 H100-SXM5 spot 11.061 8',
   'Standard_ND96isr_H100_v5 H100-SXM5 on_demand 12.29 8', 'Standard_ND96isr_H100_v5 H100-SXM5 spot 12.29 8',
   'Standard_NV36ads_A10_v5 A10 on_demand 3.20 1', 'Standard_NV36ads_A10_v5 A10 spot 0.80 1',
   'Standard_NV6ads_A10_v5 A10 on_demand 2.724 -', 'Standard_NV6ads_A10_v5 A10 spot 0.681 -'),
   'the update corrects them as 0.4.0 would have stored them');
# price_at after the update to the library's own version (update before use: docs/internals.md)
q1(q{ALTER EXTENSION llm_econ UPDATE});
is(q1(q{SELECT concat_ws(' ', llm_econ.price_at('H100', 'azure', 'spot', '2025-01-02'), llm_econ.price_at('A10', 'azure', 'spot', '2025-01-02'),
                         llm_econ.price_at('H100-NVL', 'azure', 'spot', '2025-01-02'))}),
   '11.061 0.80 6.98', 'price_at after the update: the 8-GPU ND96is, a whole A10, the H100 NVL under its own SKU');
is(q1(q{SELECT count(*) FROM llm_econ.price_series s WHERE s.provider = 'azure'
          AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.series_id = s.series_id)}),
   '0', 'no series is left without observations');

$node->stop;
done_testing();
