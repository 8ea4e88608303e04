# TAP test: CREATE EXTENSION llm_econ VERSION '0.1.0' (and '0.4.0') + data + ALTER EXTENSION UPDATE (0.1.0 -> ... -> 0.5.0, and 0.4.0 -> 0.5.0) equals a fresh install of the current version with the same data (schema, members, privileges, rows); an update past users' views.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->append_conf('postgresql.conf', "timezone = 'UTC'\nlog_statement = none\n");
$node->start;

$node->safe_psql('postgres', q{
  CREATE ROLE tenant_a NOLOGIN;
  CREATE ROLE tenant_b NOLOGIN;
  CREATE ROLE finops LOGIN IN ROLE tenant_a, tenant_b;
  CREATE DATABASE upgraded;
  CREATE DATABASE direct;
  CREATE DATABASE fresh;
  CREATE DATABASE deps;
});
sub q1 { my ($db, $sql) = @_; return $node->safe_psql($db, $sql); }

my $target = q1('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'llm_econ'});
is($target, '0.5.0', 'the installed default version is 0.5.0');
is(q1('postgres', q{SELECT string_agg(path, ' ') FROM pg_extension_update_paths('llm_econ') WHERE source = '0.1.0' AND target = '0.5.0'}),
   '0.1.0--0.2.0--0.3.0--0.4.0--0.5.0', 'the update path 0.1.0 -> 0.5.0 is the chain of release steps');
is(q1('postgres', q{SELECT string_agg(path, ' ') FROM pg_extension_update_paths('llm_econ') WHERE source = '0.2.0' AND target = '0.3.0'}),
   '0.2.0--0.3.0', 'an update path 0.2.0 -> 0.3.0 exists and is the direct script (still shipped)');
is(q1('postgres', q{SELECT string_agg(path, ' ') FROM pg_extension_update_paths('llm_econ') WHERE source = '0.3.0' AND target = '0.4.0'}),
   '0.3.0--0.4.0', 'an update path 0.3.0 -> 0.4.0 exists and is the direct script (frozen as released)');
is(q1('postgres', q{SELECT string_agg(path, ' ') FROM pg_extension_update_paths('llm_econ') WHERE source = '0.4.0' AND target = '0.5.0'}),
   '0.4.0--0.5.0', 'an update path 0.4.0 -> 0.5.0 exists and is the direct script (built: migration + all replaceable code)');

# The same user data in every database: a user GPU, aliases, an MFU row, prices by hand, by SkyPilot
# catalog and by staged history, grants, plans and FOCUS bills of two tenants.  Everything
# time-dependent is given explicitly, the plans' prices too: they are what the price table holds for
# them (acme 1.75, Lambda's gpu_1x_h100_pcie 2.29 for a 1-GPU run, mycloud's L4 spot 0.64 / 2).
# The library serves the schema of its own version only (update before use, docs/internals.md), so
# a database at an older version holds its rows as that version stored them: where the current
# library's entry point no longer serves that version's declaration or schema, the rows are written
# out (setup_for fills them in, {CATALOGS} and {PLANS}); everything else goes through the functions.
# The gpu_sku columns were renamed in 0.3.0 (units): the setup names them as the installed version
# does ({HBM_BW}, {NVLINK}, {PCIE} below).
my @setup = (q{
  INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, {HBM_BW}, fp32_tflops, bf16_tflops, fp16_tflops,
                                fp8_tflops, {NVLINK}, {PCIE}, gpus_per_node, tdp_watts, list_price_usd_low,
                                list_price_usd_high, released, source)
  VALUES ('X1-TEST', 'Acme', 'Acme X1 96GB', 96, 3200, 60, 500, 500, 1000, 900, 128, 8, 700, 20000, 25000,
          '2024-01-01', 'Acme X1 datasheet rev 3 (test fixture)');
  INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source) VALUES
    ('x1_8x', 'X1-TEST', 8, 'Acme cloud machine type (test fixture)'),
    ('Hopper-80', 'H100-SXM5', NULL, 'in-house name (test fixture)');
  INSERT INTO llm_econ.mfu_reference (config, hardware, mfu, year, source)
  VALUES ('in-house 7B run', '256x X1-TEST', 0.47, 2024, 'internal report (test fixture)');
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
  VALUES ('2024-01-01', 'acme', 'X1-TEST', NULL, 'on_demand', 2.00, 'Acme price sheet (test)'),
         ('2024-04-01', 'acme', 'X1-TEST', NULL, 'on_demand', 1.75, 'Acme price sheet (test)');
{CATALOGS}
}, q{
\copy llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour) FROM STDIN CSV HEADER
observed_at,valid_to,cloud,region,instance_type,accelerator,accelerator_count,price_on_demand_usd_per_hour,spot_price_usd_per_hour,price_on_demand_per_gpu_usd_per_hour,spot_price_per_gpu_usd_per_hour
2024-02-01T00:00:00Z,2024-03-01T00:00:00Z,mycloud,r1,g2-standard-24,L4,2,2.00,0.70,1.00,0.35
2024-03-01T00:00:00Z,2024-06-01T00:00:00Z,mycloud,r1,g2-standard-24,L4,2,1.80,0.64,,
2024-02-01T00:00:00Z,2024-04-01T00:00:00Z,mycloud,r2,x1_8x,X1-TEST,8,24.00,,,
\.
SELECT * FROM llm_econ.load_price_history(source => 'mycloud export (test)');
}, q{
  GRANT SELECT ON llm_econ.run_plan, llm_econ.spend TO tenant_a, tenant_b;
  GRANT INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO finops;
  GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO finops;
  GRANT INSERT ON llm_econ.price_snapshot TO finops;
  GRANT USAGE ON SEQUENCE llm_econ.price_snapshot_id_seq TO finops;
{PLANS}
  SELECT * FROM llm_econ.import_focus(
'BillingAccountId,BilledCost,EffectiveCost,ListCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeDescription,PricingCategory,ConsumedQuantity,ConsumedUnit,ServiceProviderName,RegionId,ResourceId,ServiceName,ServiceCategory,SkuPriceDetails,Tags
111,2359.68,2200.10,2359.68,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T00:00:00Z,2024-05-21T00:00:00Z,Usage,p5.48xlarge on-demand,Standard,24,Hours,AWS,us-east-1,i-01,Amazon Elastic Compute Cloud,Compute,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 8}","{""run_id"": ""run-a2""}"
111,9216.00,9216.00,9216.00,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T00:00:00Z,2024-05-21T00:00:00Z,Usage,per On Demand Linux x1_8x Instance Hour,Standard,72,Hours,Acme,us-1,i-x1,Acme Compute,Compute,NULL,"{""run_id"": ""run-a1""}"
111,100.00,100.00,100.00,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-22T00:00:00Z,2024-05-23T00:00:00Z,Usage,p5.48xlarge on-demand,Standard,1,Hours,AWS,us-east-1,i-02,Amazon Elastic Compute Cloud,Compute,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 8}","{""run_id"": ""run-unplanned""}"
', tenant => 'tenant_a', source => 'aws-2024-05.csv');
  SELECT * FROM llm_econ.import_focus(
'BillingAccountId,BilledCost,EffectiveCost,ListCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeDescription,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ResourceId,ServiceName,ServiceCategory,SkuPriceDetails,Tags
111,59.76,59.76,59.76,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-16T00:00:00Z,2024-05-17T00:00:00Z,Usage,gpu_1x_h100_pcie,Standard,24,Hours,Lambda,us-east-1,vm-1,Cloud,Compute,"{""InstanceType"": ""gpu_1x_h100_pcie""}","{""run_id"": ""run-b1""}"
111,-5.00,-5.00,NULL,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,Credit,promo credit,NULL,NULL,NULL,Lambda,NULL,NULL,NULL,NULL,NULL,NULL
', tenant => 'tenant_b', source => 'lambda-2024-05.csv');
});

# The SkyPilot catalogs of the setup.  At the current version they are imported; an older
# version's database gets the rows its import stored (its _skypilot_offers returned other columns than
# the library's; 0.1.0's found SKUs in SQL), 0.4.0 recording source_kind and last_seen_at (the x1_8x
# re-listed unchanged on 2024-05-01, the A100 withdrawn then).
my %catalogs = (current => q{
  SELECT * FROM llm_econ.import_skypilot_catalog('lambda',
'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
gpu_1x_h100_pcie,H100,1.0,26.0,200.0,2.49,us-east-1,,
gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,240.0,1800.0,14.32,us-east-1,,
x1_8x,X1,8.0,96.0,1000.0,16.00,us-east-1,,12.00
', '2024-03-01');
  SELECT * FROM llm_econ.import_skypilot_catalog('lambda',
'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
gpu_1x_h100_pcie,H100,1.0,26.0,200.0,2.29,us-east-1,,
x1_8x,X1,8.0,96.0,1000.0,16.00,us-east-1,,12.00
', '2024-05-01');});
#   observed_at, sku, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, and at 0.4.0 last_seen_at
my @catalog_rows = (
  ['2024-03-01', 'A100-80GB', 'on_demand', '1.79', 'gpu_8x_a100_80gb_sxm4', '8', q{'2024-03-01'}],
  ['2024-03-01', 'H100-PCIe', 'on_demand', '2.49', 'gpu_1x_h100_pcie', '1', q{'2024-03-01'}],
  ['2024-03-01', 'X1-TEST', 'on_demand', '2.00', 'x1_8x', '8', q{'2024-05-01'}],
  ['2024-03-01', 'X1-TEST', 'spot', '1.50', 'x1_8x', '8', q{'2024-05-01'}],
  ['2024-05-01', 'A100-80GB', 'on_demand', 'NULL', 'gpu_8x_a100_80gb_sxm4', 'NULL', 'NULL'],
  ['2024-05-01', 'H100-PCIe', 'on_demand', '2.29', 'gpu_1x_h100_pcie', '1', q{'2024-05-01'}]);
for my $v ('0.1.0', '0.4.0')
{
  my $kind = $v eq '0.4.0';
  $catalogs{$v} = "  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type,\n"
    . "                                       gpus_per_instance, source" . ($kind ? ', source_kind, last_seen_at' : '') . ") VALUES\n"
    . join(",\n", map { my ($t, $sku, $pr, $usd, $it, $g, $seen) = @$_;
                        "    ('$t', 'lambda', '$sku', 'us-east-1', '$pr', $usd, '$it', $g, 'SkyPilot catalog vms.csv (lambda)'"
                        . ($kind ? ", 'catalog', $seen" : '') . ')' } @catalog_rows) . ";";
}

# The plans.  At the current version run_spec(...) builds the specs; an older version's database
# holds the specs its constructor froze (0.1.0's 19 fields; 0.4.0's also the fields 0.3.0 and 0.4.0
# added, at their defaults, and the SKU's HBM bandwidth and generation).  0.1.0's freeze trigger would
# call _sku_key, whose C lookup reads 0.4.0's instance_type: its plans are written with the GPU-hours
# and USD it froze, the trigger off.
my %plan_spec = (
  'run-a1' => q{"n_params": 7e9, "n_tokens": 1.4e11, "sku": "X1-TEST", "n_gpus": 64, "gpus_per_node": 8, "mfu": 0.45, "dtype": "bf16", "peak_flops": 5e14, "hbm_bytes": 96e9, "intra_node_bytes_per_s": 450e9},
  'run-a2' => q{"n_params": 1e9, "n_tokens": 2e10, "sku": "H100-SXM5", "n_gpus": 8, "gpus_per_node": 8, "mfu": 0.4, "dtype": "bf16", "peak_flops": 989e12, "hbm_bytes": 80e9, "intra_node_bytes_per_s": 450e9},
  'run-b1' => q{"n_params": 3e9, "n_tokens": 6e10, "sku": "H100-PCIe", "n_gpus": 1, "gpus_per_node": 8, "mfu": 0.4, "dtype": "bf16", "peak_flops": 756e12, "hbm_bytes": 80e9, "intra_node_bytes_per_s": 64e9, "n_layers": 32, "d_model": 2560, "n_heads": 32, "seq_len": 2048},
  'run-b2' => q{"n_params": 1e8, "n_tokens": 2e9, "sku": "L4", "n_gpus": 2, "gpus_per_node": 8, "mfu": 0.35, "dtype": "bf16", "peak_flops": 121e12, "hbm_bytes": 24e9, "intra_node_bytes_per_s": 32e9});
my %plan_tdp = ('run-a1' => 700, 'run-a2' => 700, 'run-b1' => 350, 'run-b2' => 72);
# 0.3.0 and 0.4.0's fields: HBM as the driver reports it where known, HBM bandwidth and generation
my %plan_040 = (
  'run-a1' => q{"hbm_bytes_per_s": 3.2e12, "gpu_generation": "other"},
  'run-a2' => q{"hbm_bytes": 85520809984, "hbm_bytes_per_s": 3.35e12, "gpu_generation": "hopper"},
  'run-b1' => q{"hbm_bytes": 85520809984, "hbm_bytes_per_s": 2e12, "gpu_generation": "hopper"},
  'run-b2' => q{"hbm_bytes_per_s": 3e11, "gpu_generation": "other"});
my @plans = (   # run_id, provider, pricing, planned_at, usd_per_gpu_hour, tenant, team, notes, and what 0.1.0 froze: GPU-hours, USD
  ['run-a1', 'acme', 'on_demand', '2024-05-15', '1.75', 'tenant_a', 'pretrain', 'price from acme', '7259.259259259259', '12703.7037037037050'],
  ['run-a2', 'aws', 'on_demand', '2024-05-15', '3.90', 'tenant_a', 'pretrain', 'given price', '84.26019548365352', '328.614762386248650'],
  ['run-b1', 'lambda', 'on_demand', '2024-05-15', '2.29', 'tenant_b', 'evals', 'price from the catalog', '992.063492063492', '2271.82539682539668'],
  ['run-b2', 'mycloud', 'spot', '2024-04-15', '0.32', 'tenant_b', 'evals', 'price from the staged history', '7.870916961826053', '2.5186934277843360']);
my %plans = (current => q{
  SET ROLE finops;
  INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, planned_at, usd_per_gpu_hour, tenant, team, notes) VALUES
    ('run-a1', llm_econ.run_spec(7e9, 1.4e11, 64, 'X1-TEST', mfu => 0.45), 'acme', 'on_demand', '2024-05-15', 1.75, 'tenant_a', 'pretrain', 'price from acme'),
    ('run-a2', llm_econ.run_spec(1e9, 2e10, 8, 'Hopper-80', mfu => 0.40), 'aws', 'on_demand', '2024-05-15', 3.90, 'tenant_a', 'pretrain', 'given price'),
    ('run-b1', llm_econ.run_spec(3e9, 6e10, 1, 'H100-PCIe', mfu => 0.40, n_layers => 32, d_model => 2560, n_heads => 32, seq_len => 2048),
     'lambda', 'on_demand', '2024-05-15', 2.29, 'tenant_b', 'evals', 'price from the catalog'),
    ('run-b2', llm_econ.run_spec(1e8, 2e9, 2, 'L4', mfu => 0.35), 'mycloud', 'spot', '2024-04-15', 0.32, 'tenant_b', 'evals', 'price from the staged history');});
# 0.1.0's constructor's defaults for every plan; 0.4.0's also those of the fields 0.3.0 and 0.4.0 added
my $defaults_010 = q{"micro_batch": 1, "tp": 1, "pp": 1, "zero_stage": 0, "recompute": "none", "optimizer": "adamw", "inter_node_bytes_per_s": 50e9};
my $defaults_040 = q{"ep": 1, "cp": 1, "vpp": 1, "ffn_act": "gelu", "sequence_parallel": true, "attention": "flash", "grad_dtype": "bf16", "dropout": false};
for my $v ('0.1.0', '0.4.0')
{
  my $old = $v eq '0.1.0';
  my @values = map {
    my ($id, $prov, $pr, $at, $usd, $tenant, $team, $notes, $hours, $cost) = @$_;
    my $spec = "{$plan_spec{$id}, \"tdp_watts\": $plan_tdp{$id}, $defaults_010" . ($old ? '' : ", $defaults_040, $plan_040{$id}") . '}';
    "    ('$id', jsonb_populate_record(NULL::llm_econ.run_spec, '$spec'),\n     '$prov', '$pr', '$at', $usd, '$tenant', '$team', '$notes'"
      . ($old ? ", $hours, $cost" : '') . ')' } @plans;
  $plans{$v} = ($old ? "  SET session_replication_role = replica;\n" : "  SET ROLE finops;\n")
    . '  INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, planned_at, usd_per_gpu_hour, tenant, team, notes'
    . ($old ? ', planned_gpu_hours, planned_usd' : '') . ") VALUES\n" . join(",\n", @values) . ";\n"
    . ($old ? "  RESET session_replication_role;\n  SET ROLE finops;\n" : '');
}

# The setup as the database at $version holds it (the current version, or 0.1.0 or 0.4.0).
sub setup_for
{
  my ($version) = @_;
  my $key = $version eq $target ? 'current' : $version;
  die "no setup for $version" unless exists $catalogs{$key};
  my %col = $version ne '0.1.0' ? (HBM_BW => 'hbm_gb_per_s', NVLINK => 'nvlink_gb_per_s', PCIE => 'pcie_gb_per_s')
                                : (HBM_BW => 'hbm_bandwidth_gbps', NVLINK => 'nvlink_gbps', PCIE => 'pcie_gbps');
  $col{CATALOGS} = $catalogs{$key};
  $col{PLANS} = $plans{$key};
  return map { (my $sql = $_) =~ s/\{(HBM_BW|NVLINK|PCIE|CATALOGS|PLANS)\}/$col{$1}/g; $sql } @setup;
}

# Every table's rows as one checksum each (ordered by key; price_series by its text).  spend's
# imported_at is now() at import time, and its id the order of that import, so they can only match
# within one database: the comparison across databases leaves them out, the before/after-update
# comparison keeps them.  Through the update
# 0.3.0 re-keys spend (row_hash = the charge identity, occurrence renumbered, billing_account_id
# filled, delivery added, record reduced to the columns no typed column holds) and plan_vs_actual
# gains rows and columns: that comparison leaves those out, and the comparison with a fresh install
# checks them.  The daily summary (0.3.0) is compared across databases only: a fresh install ships
# the summary of its shipped prices, an updated one builds it from its own, and the two must agree.
sub table_sums
{
  my ($db, $keep_import_time, $pre_030_columns) = @_;
  my $drop = $keep_import_time
    ? " - 'row_hash' - 'occurrence' - 'billing_account_id' - 'delivery' - 'record'"
    : " - 'imported_at' - 'id'";
  # spend's id is the order the importing version inserted the lines in (0.1.0: its raw-line
  # hashes; now: the file's lines), so across databases rows are matched by tenant, file and line
  my $spend_order = $keep_import_time ? 'id' : 'tenant, source, line, occurrence';
  my $pva = $keep_import_time ? '' : q{
    UNION ALL SELECT 'plan_vs_actual ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY to_jsonb(t)::text)) FROM llm_econ.plan_vs_actual t
    UNION ALL SELECT 'price_daily_group ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY sku, provider, pricing)) FROM llm_econ.price_daily_group t
    UNION ALL SELECT 'price_daily_summary ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY sku, provider, pricing, "time")) FROM llm_econ.price_daily_summary t};
  # price_snapshot columns added by 0.3.0, left out when comparing a row before and after the update
  my $new = $pre_030_columns ? " - 'source_kind' - 'suspect' - 'series_id' - 'last_seen_at'" : '';
  # last_seen_at (0.4.0): a history a user loaded before 0.4.0 left no trace of when its last line
  # ended, so the update's rule (docs/prices.md) can differ from what the loader records now:
  # compared across databases for every other row, and checked against the rule below
  my $snap = $keep_import_time ? 'to_jsonb(t)'
    : q{(CASE WHEN NOT t.builtin AND t.source_kind = 'history' THEN to_jsonb(t) - 'last_seen_at' ELSE to_jsonb(t) END)};
  return q1($db, qq{SELECT string_agg(x, E'\\n' ORDER BY x) FROM (
    SELECT 'gpu_sku ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY sku)) FROM llm_econ.gpu_sku t
    UNION ALL SELECT 'gpu_sku_user ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY sku)) FROM llm_econ.gpu_sku t WHERE NOT builtin
    UNION ALL SELECT 'gpu_sku_alias_user ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY alias)) FROM llm_econ.gpu_sku_alias t WHERE NOT builtin
    UNION ALL SELECT 'gpu_sku_alias ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY alias)) FROM llm_econ.gpu_sku_alias t
    UNION ALL SELECT 'mfu_reference ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY config)) FROM llm_econ.mfu_reference t
    UNION ALL SELECT 'price_snapshot ' || count(*) || ' ' || md5(string_agg(${snap}::text, ',' ORDER BY id)) FROM llm_econ.price_snapshot t
    UNION ALL SELECT 'price_snapshot_user ' || count(*) || ' ' || md5(string_agg((${snap}${new})::text, ',' ORDER BY id)) FROM llm_econ.price_snapshot t WHERE NOT builtin
    UNION ALL SELECT 'price_series ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY to_jsonb(t)::text)) FROM llm_econ.price_series t
    UNION ALL SELECT 'price_history_staging ' || count(*) FROM llm_econ.price_history_staging t
    UNION ALL SELECT 'run_plan ' || count(*) || ' ' || md5(string_agg(to_jsonb(t)::text, ',' ORDER BY run_id)) FROM llm_econ.run_plan t
    UNION ALL SELECT 'spend ' || count(*) || ' ' || md5(string_agg((to_jsonb(t)$drop)::text, ',' ORDER BY $spend_order)) FROM llm_econ.spend t
    $pva
    UNION ALL SELECT 'sequences ' || (SELECT last_value FROM llm_econ.price_snapshot_id_seq) || ' ' || (SELECT last_value FROM llm_econ.spend_id_seq)
  ) AS s(x)});
}

# ---- 0.1.0 with data, then ALTER EXTENSION UPDATE ---------------------------------------------
q1('upgraded', q{CREATE EXTENSION llm_econ VERSION '0.1.0'});
is(q1('upgraded', q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), '0.1.0', 'installed at 0.1.0');
q1('upgraded', $_) for setup_for('0.1.0');
my $before = table_sums('upgraded', 1, 1);
like($before, qr/^run_plan 4 /m, 'setup: 0.1.0 database has the plans');
like($before, qr/^spend 5 /m, 'setup: 0.1.0 database has the bills');
like($before, qr/^price_snapshot_user 1[0-9] /m, 'setup: 0.1.0 database has the user prices');
# The library serves the schema of its own version: price lookups are called after the update only.
my $price_sql = q{SELECT llm_econ.price_at('H100-SXM5', 'gcp', 'on_demand', '2025-01-01')};
my ($ret, $stdout, $stderr) = $node->psql('upgraded', 'ALTER EXTENSION llm_econ UPDATE');
is($ret, 0, 'ALTER EXTENSION llm_econ UPDATE succeeds');
is($stderr, '', 'ALTER EXTENSION llm_econ UPDATE says nothing (no warning, no notice)');
is(q1('upgraded', q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), $target, 'extversion is the current version after the update');
my $after = table_sums('upgraded', 1, 1);
like(q1('upgraded', $price_sql), qr/^[0-9.]+$/, 'price_at answers after the update (update before use)');
# 0.3.0 renames gpu_sku columns, rewrites shipped rows (gpu_sku, mfu_reference), adds shipped aliases (the TPU, Trainium,
# Azure, Lambda and RunPod names), removes the shipped host-only GCP prices (so price_series changes too) and rewrites the
# stored plans' specs (new fields, HBM as the driver reports it), on purpose; every other table, the user's price rows
# among them (without the columns 0.3.0 adds), is untouched
my $untouched = sub { join "\n", grep { !/^(gpu_sku|gpu_sku_user|gpu_sku_alias|mfu_reference|run_plan|price_snapshot|price_series) / } split /\n/, $_[0] };
is($untouched->($after), $untouched->($before), 'every other row intact through the update (all tables, views and sequences)');
like($after, qr/^run_plan 4 /m, 'the 4 plans are still there');
# 0.3.0 (issue 14): renamed columns and argument, new fields in stored plans, re-frozen HBM
is(q1('upgraded', q{SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
                     WHERE attrelid = 'llm_econ.gpu_sku'::regclass AND attname ~ '(gbps|gb_per_s|hbm_bytes)$' AND NOT attisdropped}),
   'hbm_gb_per_s,nvlink_gb_per_s,pcie_gb_per_s,hbm_bytes', 'gpu_sku bandwidth columns renamed to *_gb_per_s, hbm_bytes added');
is(q1('upgraded', q{SELECT (llm_econ.run_spec(7e9, 1e12, 64, 'H100', inter_node_gbit_per_s => 400)).inter_node_bytes_per_s}),
   '50000000000', 'inter_node_gbit_per_s => 400 is 50e9 bytes/s after the update');
is(q1('upgraded', q{SELECT string_agg(format('%s %s %s %s %s', run_id, (spec).hbm_bytes, (spec).ep, (spec).attention, planned_usd), E'\n' ORDER BY run_id)
                      FROM llm_econ.run_plan}),
   q1('upgraded', q{SELECT string_agg(format('%s %s %s %s %s', run_id, (s).hbm_bytes, 1, 'flash', p.planned_usd), E'\n' ORDER BY run_id)
                      FROM llm_econ.run_plan p, llm_econ.gpu_sku g,
                           LATERAL (SELECT COALESCE(g.hbm_bytes, g.hbm_gb * 1e9) AS hbm_bytes) AS s
                     WHERE g.sku = (p.spec).sku}),
   'stored plans: new fields at their defaults, HBM re-frozen as the driver reports it, planned USD unchanged');
# 0.3.0 (issue 15): the step model's hardware frozen into stored plans from their SKU, and the functions there
is(q1('upgraded', q{SELECT string_agg(format('%s %s %s', run_id, (spec).hbm_bytes_per_s, (spec).gpu_generation), E'\n' ORDER BY run_id)
                      FROM llm_econ.run_plan}),
   q1('upgraded', q{SELECT string_agg(format('%s %s %s', run_id, g.hbm_gb_per_s * 1e9::float8, g.generation), E'\n' ORDER BY run_id)
                      FROM llm_econ.run_plan p JOIN llm_econ.gpu_sku g ON g.sku = (p.spec).sku}),
   'stored plans: hbm_bytes_per_s and gpu_generation frozen from their SKU');
is(q1('upgraded', q{SELECT generation FROM llm_econ.gpu_sku WHERE sku = 'H100-SXM5'}), 'hopper', 'shipped SKUs have their generation');
is(q1('upgraded', q{SELECT round(llm_econ.predicted_mfu(llm_econ.run_spec(7e9, 1e12, 8, 'H100', n_layers => 32, d_model => 4096,
                                   n_heads => 32, seq_len => 4096, global_batch => 256))::numeric, 2) > 0}),
   't', 'predicted_mfu works after the update');

# 0.3.0: tdp_watts may be NULL (power not published); the shipped parts without it and their aliases are there,
# the user's aliases untouched
is(q1('upgraded', q{SELECT is_nullable FROM information_schema.columns
                     WHERE table_schema = 'llm_econ' AND table_name = 'gpu_sku' AND column_name = 'tdp_watts'}),
   'YES', 'gpu_sku.tdp_watts is nullable after the update');
is(q1('upgraded', q{SELECT string_agg(sku, ',' ORDER BY sku) FROM llm_econ.gpu_sku WHERE tdp_watts IS NULL}),
   'TPU-v5e,TPU-v5p,TPU-v6e,Trainium1,Trainium2', 'the parts without published power are added by the update');
is(q1('upgraded', q{SELECT (llm_econ.run_spec(7e9, 1e12, 64, 'trn2.48xlarge')).tdp_watts IS NULL
                           AND llm_econ.energy_kwh(llm_econ.run_spec(7e9, 1e12, 64, 'trn2.48xlarge')) IS NULL}),
   't', 'after the update a Trainium2 spec freezes no TDP and its energy is NULL');
my ($alias_user_after) = $after =~ /^(gpu_sku_alias_user .*)$/m;
my ($alias_user_before) = $before =~ /^(gpu_sku_alias_user .*)$/m;
is($alias_user_after, $alias_user_before, "the user's aliases are untouched by the update");

# ---- 0.4.0 with data, then ALTER EXTENSION UPDATE: the step this release builds --------------------------------------
# (src/migrate/0.4.0--0.5.0.sql, then every src/sql file: what did not change is replaced in place)
q1('direct', q{CREATE EXTENSION llm_econ VERSION '0.4.0'});
is(q1('direct', q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), '0.4.0', 'installed at 0.4.0 (the released install script)');
q1('direct', $_) for setup_for('0.4.0');
($ret, $stdout, $stderr) = $node->psql('direct', 'ALTER EXTENSION llm_econ UPDATE');
is($ret, 0, '0.4.0 -> 0.5.0: ALTER EXTENSION llm_econ UPDATE succeeds');
is($stderr, '', '0.4.0 -> 0.5.0: the update says nothing (no warning, no notice)');
is(q1('direct', q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), $target, '0.4.0 -> 0.5.0: extversion is the current version');
is(q1('direct', q{SELECT count(*) FROM pg_proc WHERE proname = '_update_drop_check'}), '0', "the update's drop check is gone after the update");

# ---- fresh install of the current version with the same data ------------------------------------------------------------
q1('fresh', 'CREATE EXTENSION llm_econ');
q1('fresh', $_) for setup_for($target);
my @updated = qw(upgraded direct);

# ---- schemas: pg_dump --schema-only, plain and --binary-upgrade ---------------------------------
# A plain schema-only dump of a database using an extension holds only CREATE EXTENSION, its
# comment and the grants made since; --binary-upgrade also lists every member object with its
# full definition (as pg_upgrade recreates them), so it compares the whole extension.
# Filters, each for lines that differ between two equal databases by construction:
#   \restrict / \unrestrict <key>         - a random key per dump (psql meta-command guard, 15.14+)
#   binary_upgrade_set_next_*(<oid>|<lsn>) - OIDs, relfilenodes and attribute LSNs, assigned when each
#                                          object was created (the upgraded database made them later)
#   binary_upgrade_create_empty_extension(..., '{oids}', ...) - extconfig as OIDs (compared by name below)
#   SET relfrozenxid = ..., WHERE oid = ... - transaction ids and TOAST table OIDs of each table
sub schema_dump
{
  my ($db, @opts) = @_;
  my ($out, $err) = run_command([ 'pg_dump', '--schema-only', @opts, '-d', $node->connstr($db) ]);
  die "pg_dump $db: $err" if $err ne '';
  my @keep;
  for my $line (split /\n/, $out)
  {
    next if $line =~ /^\\(un)?restrict /;
    next if $line =~ /binary_upgrade_set_next_\w+\(/;
    next if $line =~ /^\s*SET relfrozenxid = '\d+', relminmxid = '\d+'$/;
    next if $line =~ /^\s*WHERE oid = '\d+';$/;
    $line =~ s/(binary_upgrade_create_empty_extension\('llm_econ', '[^']*', \w+, '[^']*', )'\{[0-9,]+\}'/$1'{extconfig}'/;
    push @keep, $line;
  }
  return join("\n", @keep) . "\n";
}
# Equal texts, or a failure showing the start of "diff -u fresh upgraded" (not two whole dumps).
my $tmp = PostgreSQL::Test::Utils::tempdir;
sub same_text
{
  my ($got, $expected, $tag, $name) = @_;
  return pass($name) if $got eq $expected;
  PostgreSQL::Test::Utils::append_to_file("$tmp/$tag.fresh.sql", $expected);
  PostgreSQL::Test::Utils::append_to_file("$tmp/$tag.upgraded.sql", $got);
  my ($diff) = run_command([ 'diff', '-u', "$tmp/$tag.fresh.sql", "$tmp/$tag.upgraded.sql" ]);
  my @lines = split /\n/, $diff;
  fail($name);
  diag(join("\n", @lines[0 .. ($#lines < 80 ? $#lines : 80)]));
  return 0;
}
my %dump = (
  plain            => { opts => [], shows => qr/CREATE EXTENSION IF NOT EXISTS llm_econ.*GRANT SELECT ON TABLE llm_econ\.spend TO tenant_a/s },
  'binary-upgrade' => { opts => ['--binary-upgrade'],
                        shows => qr/binary_upgrade_create_empty_extension\('llm_econ'.*CREATE VIEW llm_econ\.spend_daily.*ALTER EXTENSION llm_econ ADD VIEW llm_econ\.spend_daily/s },
);
for my $kind (sort keys %dump)
{
  my $f = schema_dump('fresh', @{ $dump{$kind}{opts} });
  ok($f =~ $dump{$kind}{shows}, "$kind schema dump of the fresh database has what it is compared for");
  for my $db (@updated)
  {
    my $u = schema_dump($db, @{ $dump{$kind}{opts} });
    same_text($u, $f, "$kind.$db", "$kind pg_dump --schema-only identical ($db vs fresh)");
  }
}

# ---- the extension's member objects and its catalog entry --------------------------------------
my $members = q{SELECT count(*) || E'\n' || string_agg(pg_describe_object(classid, objid, objsubid), E'\n'
                                                       ORDER BY pg_describe_object(classid, objid, objsubid))
                  FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
                   AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'llm_econ')};
like(q1('fresh', $members), qr/view llm_econ\.spend_daily/, 'the fresh install owns spend_daily');
is(q1($_, $members), q1('fresh', $members), "$_: member objects identical (pg_describe_object over pg_depend deptype e)") for @updated;
my $ext = q{SELECT extname || ' ' || extversion || ' ' || extnamespace::regnamespace || ' ' || extrelocatable || ' '
                   || (SELECT string_agg(c::regclass::text || ' ' || quote_literal(w), ',' ORDER BY c::regclass::text)
                         FROM unnest(extconfig, extcondition) AS u(c, w))
              FROM pg_extension WHERE extname = 'llm_econ'};
is(q1($_, $ext), q1('fresh', $ext), "$_: pg_extension entry identical (version, schema, config tables and their dump conditions, by table name: the order tables were registered in does not matter)") for @updated;
my $initprivs = q{SELECT string_agg(pg_describe_object(classoid, objoid, objsubid) || ' ' || initprivs::text, E'\n'
                                   ORDER BY pg_describe_object(classoid, objoid, objsubid))
                    FROM pg_init_privs WHERE privtype = 'e'
                     AND (classoid = 'pg_class'::regclass AND objoid IN (SELECT oid FROM pg_class WHERE relnamespace = 'llm_econ'::regnamespace)
                          OR classoid = 'pg_proc'::regclass AND objoid IN (SELECT oid FROM pg_proc WHERE pronamespace = 'llm_econ'::regnamespace)
                          OR classoid = 'pg_namespace'::regclass AND objoid = 'llm_econ'::regnamespace)};
like(q1('fresh', $initprivs), qr/^function llm_econ\._price_series_add\(\) /m, 'pg_init_privs lists the functions whose EXECUTE the scripts revoke');
is(q1($_, $initprivs), q1('fresh', $initprivs), "$_: extension objects' initial privileges identical (pg_init_privs: tables, views, sequences, functions, the schema)") for @updated;

# ---- data: shipped and user rows ---------------------------------------------------------------
my $f = table_sums('fresh', 0);
for my $db (@updated)
{
  my $u = table_sums($db, 0);
  is($u, $f, "$db: per-table checksums identical, shipped and user rows (spend without imported_at)");
  for my $t (qw(gpu_sku gpu_sku_user gpu_sku_alias gpu_sku_alias_user mfu_reference price_snapshot price_snapshot_user price_series
                 price_history_staging run_plan spend plan_vs_actual price_daily_group price_daily_summary sequences))
  {
    my ($lu) = $u =~ /^(\Q$t\E .*)$/m;
    my ($lf) = $f =~ /^(\Q$t\E .*)$/m;
    is($lu, $lf, "$t identical ($db vs fresh)");
  }
}
# last_seen_at of the prices stored before the update (0.4.0, docs/prices.md): a catalog price
# until the latest catalog of its source before the series' next observation (the lambda x1_8x,
# re-listed unchanged 2024-05-01); a loaded history's price until the series' next observation,
# else the source's latest observation (the loader now says 2024-06-01, the line's valid_to: not
# known before 0.4.0); a price entered by hand: NULL (seen when observed)
my $seen_sql = q{SELECT string_agg(provider || ' ' || coalesce(instance_type, '-') || ' ' || pricing || ' ' || observed_at::date
                                   || ' ' || coalesce(last_seen_at::date::text, 'NULL'), E'\n'
                                   ORDER BY provider, instance_type, pricing, observed_at)
                   FROM llm_econ.price_snapshot WHERE NOT builtin AND usd_per_gpu_hour IS NOT NULL};
is(q1('upgraded', $seen_sql),
   join("\n", 'acme - on_demand 2024-01-01 NULL', 'acme - on_demand 2024-04-01 NULL',
        'lambda gpu_1x_h100_pcie on_demand 2024-03-01 2024-03-01', 'lambda gpu_1x_h100_pcie on_demand 2024-05-01 2024-05-01',
        'lambda gpu_8x_a100_80gb_sxm4 on_demand 2024-03-01 2024-03-01',
        'lambda x1_8x on_demand 2024-03-01 2024-05-01', 'lambda x1_8x spot 2024-03-01 2024-05-01',
        'mycloud g2-standard-24 on_demand 2024-02-01 2024-03-01', 'mycloud g2-standard-24 on_demand 2024-03-01 2024-04-01',
        'mycloud g2-standard-24 spot 2024-02-01 2024-03-01', 'mycloud g2-standard-24 spot 2024-03-01 2024-04-01',
        'mycloud x1_8x on_demand 2024-02-01 2024-04-01'),
   'last_seen_at of the user prices stored before the update follows the documented rule');
my $seen_fresh = q1('fresh', $seen_sql);
like($seen_fresh, qr/^mycloud g2-standard-24 on_demand 2024-03-01 2024-06-01$/m, 'a fresh load records the history line\'s valid_to');

# the view added by 0.2.0 works on data written under 0.1.0
my $daily = q{SELECT string_agg(to_jsonb(d)::text, E'\n' ORDER BY "time", tenant, provider, service_category) FROM llm_econ.spend_daily d};
like(q1('fresh', $daily), qr/"billed_usd": 9216\.00/, 'spend_daily in the fresh install sums the bills');
is(q1($_, $daily), q1('fresh', $daily), "$_: spend_daily identical on the data written before the update") for @updated;

# The charges imported before the update carry the 0.3.0 charge identity: the same bill,
# re-exported with another timestamp style and an extra column, adds nothing in either database
# (0.2.0 hashed the raw line and would have stored it twice; mode append: only what is not stored).
my ($bill) = $setup[2] =~ /import_focus\(\n'(BillingAccountId,BilledCost.*?)', tenant => 'tenant_a'/s;
ok(defined $bill && $bill =~ /T00:00:00Z/, 'the tenant_a bill of the setup is found');
(my $reexport = $bill) =~ s/T00:00:00Z/ 00:00:00+00:00/g;
$reexport =~ s/\n/,x_Export\n/g;
for my $db (@updated, 'fresh')
{
  is(q1($db, qq{SELECT inserted || ' ' || skipped || ' ' || replaced FROM llm_econ.import_focus(\$\$$reexport\$\$, tenant => 'tenant_a', source => 're-export', mode => 'append')}),
     '0 3 0', "$db: the re-exported bill adds nothing (charge identity, not raw lines)");
}

# ---- an update past the views of users (issue 42) ------------------------------------------------------------------------
# An unprivileged role's views over the extension's functions and views, made at 0.4.0.  The update
# replaces what did not change in place (CREATE OR REPLACE), so such views survive it; what the
# migration must drop (a signature or the result columns change) is checked first by
# llm_econ._update_drop_check (src/migrate/update_head.sql), which stops the update with an error whose
# DETAIL names the views in the way and whose HINT says what to do.
my $update_sql = PostgreSQL::Test::Utils::slurp_file($node->config_data('--sharedir') . "/extension/llm_econ--0.4.0--$target.sql");
my @drops = $update_sql =~ /_update_drop_check\('(function|view)', '([^']+)'\)/g;
q1('deps', q{CREATE EXTENSION llm_econ VERSION '0.4.0'});
q1('postgres', q{CREATE ROLE viewer NOLOGIN});
q1('deps', q{GRANT CREATE ON SCHEMA public TO viewer});
q1('deps', q{SET ROLE viewer;
  CREATE VIEW public.my_offers AS SELECT * FROM llm_econ.cheapest_offers(NULL::llm_econ.run_spec);
  CREATE VIEW public.my_price AS SELECT llm_econ.price_at('H100-SXM5', 'gcp', 'on_demand', '2025-01-01') AS usd;
  CREATE VIEW public.my_history AS SELECT count(*) AS n FROM llm_econ.price_history;
  CREATE VIEW public.my_monthly AS SELECT * FROM llm_econ.spend_monthly;});
# (no call at 0.4.0: the library serves the schema of its own version; update before use)

# The check itself, as the update script ships it, run at 0.4.0 on objects these views use: a
# function (price_at), a view (price_history), and a function they reach only through a view of
# the extension (_billing_month, through spend_monthly).
my ($check_fn) = $update_sql =~ /(CREATE FUNCTION llm_econ\._update_drop_check\(.*?\nEND \$\$;)/s;
ok(defined $check_fn, 'the update script creates llm_econ._update_drop_check');
q1('deps', "BEGIN; $check_fn COMMIT;");
my $price_sig = q1('deps', q{SELECT DISTINCT d.refobjid::regprocedure FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
                              WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_proc'::regclass
                                AND r.ev_class = 'public.my_price'::regclass AND d.refobjid::regproc::text = 'llm_econ.price_at'});
my $month_sig = q1('deps', q{SELECT oid::regprocedure FROM pg_proc WHERE proname = '_billing_month'});
for my $case (["function", $price_sig, 'view public.my_price'], ['view', 'llm_econ.price_history', 'view public.my_history'],
              ['function', $month_sig, 'view public.my_monthly'])
{
  my ($kind, $name, $blocker) = @$case;
  my ($r, $o, $e) = $node->psql('deps', "SELECT llm_econ._update_drop_check('$kind', '$name')");
  isnt($r, 0, "drop check on $kind $name fails");
  like($e, qr/ERROR:  cannot update extension llm_econ: its \Q$kind $name\E is used by objects outside the extension/, "drop check on $name: the error names it");
  like($e, qr/DETAIL:  The update drops \Q$kind $name\E .*depend on it: .*\Q$blocker\E/, "drop check on $name: DETAIL names $blocker");
  like($e, qr/HINT:  Save the definitions of those objects .* drop them, run ALTER EXTENSION llm_econ UPDATE/, "drop check on $name: HINT says what to do");
}
is(q1('deps', q{SELECT llm_econ._update_drop_check('function', 'llm_econ.training_flops(llm_econ.run_spec, boolean)')}), '',
   'drop check passes for a function no outside object uses');
is(q1('deps', q{SELECT llm_econ._update_drop_check('function', 'llm_econ.no_such_function(text)')}), '',
   'drop check passes for a function that does not exist (DROP ... IF EXISTS)');
q1('deps', q{DROP FUNCTION llm_econ._update_drop_check(text, text)});

# The update itself: it goes through unless the migration drops something these views use; then
# it stops naming them, and goes through once they are dropped.
my $blocked = '';
if (@drops)
{
  my @oids;
  while (my ($kind, $name) = splice(@drops, 0, 2))
  {
    push @oids, $kind eq 'function' ? "('pg_proc'::regclass, to_regprocedure('$name'))" : "('pg_class'::regclass, to_regclass('$name'))";
  }
  $blocked = q1('deps', q{SELECT string_agg(DISTINCT c.relname, ' ' ORDER BY c.relname) FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
                            JOIN pg_class c ON c.oid = r.ev_class
                           WHERE d.classid = 'pg_rewrite'::regclass AND c.relnamespace = 'public'::regnamespace
                             AND (d.refclassid, d.refobjid) IN (VALUES } . join(', ', @oids) . q{)});
}
($ret, $stdout, $stderr) = $node->psql('deps', 'ALTER EXTENSION llm_econ UPDATE');
if ($blocked eq '')
{
  is($ret, 0, "0.4.0 -> 0.5.0 goes through an unprivileged role's views over functions and views it does not drop");
  is($stderr, '', 'and says nothing');
  is(q1('deps', q{SELECT usd FROM public.my_price}), q1('deps', $price_sql), "the role's view over price_at answers as price_at after the update");
  like(q1('deps', q{SELECT n FROM public.my_history}), qr/^[1-9][0-9]*$/, "the role's view over price_history answers after the update");
}
else
{
  isnt($ret, 0, "0.4.0 -> 0.5.0 stops at the role's views over what it drops ($blocked)");
  like($stderr, qr/DETAIL:  .*\Q$_\E/, "the error's DETAIL names view $_") for split / /, $blocked;
  q1('deps', "DROP VIEW public.$_") for split / /, $blocked;
  ($ret, $stdout, $stderr) = $node->psql('deps', 'ALTER EXTENSION llm_econ UPDATE');
  is($ret, 0, 'with those views dropped, the update goes through');
  is(q1('deps', q{SELECT usd FROM public.my_price}), q1('deps', $price_sql), "the role's view over price_at answers as price_at after the update")
    if $blocked !~ /\bmy_price\b/;
}
is(q1('deps', q{SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'}), $target, 'deps: updated to the current version');

# The update leaves the session's settings as they were: search_path (the script pins its own, which
# PostgreSQL restores at the script's end only if the script does not SET it again), alone and in a
# transaction block.
q1('postgres', 'CREATE DATABASE settings');
q1('settings', q{CREATE EXTENSION llm_econ VERSION '0.4.0'});
is(q1('settings', q{SET search_path = public, llm_econ; ALTER EXTENSION llm_econ UPDATE; SHOW search_path}), 'public, llm_econ',
   "0.4.0 -> 0.5.0 leaves the session's search_path as it was");
q1('settings', q{DROP EXTENSION llm_econ; CREATE EXTENSION llm_econ VERSION '0.4.0'});
is(q1('settings', q{BEGIN; SET LOCAL search_path = public, llm_econ; ALTER EXTENSION llm_econ UPDATE; SHOW search_path; COMMIT}),
   'public, llm_econ', "... and inside a transaction block");

done_testing();
