# TAP test: load_focus of a staged file many times the shared buffers, read from outside them after a restart, stores every line once, in several statements.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('large');
$node->init;
# 16 MB of shared buffers (2,048 buffers); work_mem 1 MB: statements of 1,024 staged lines.
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nwork_mem = 1MB\nautovacuum = off\ntimezone = 'UTC'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION llm_econ');
# 9,000 lines of about 900 bytes, staged by INSERT (which keeps every page cached), then the
# server restarted: the load reads every staged page from outside the shared buffers.
$node->safe_psql('postgres', q{
  INSERT INTO llm_econ.focus_staging (line)
    VALUES ('BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,ChargeDescription');
  INSERT INTO llm_econ.focus_staging (line)
    SELECT format('111,USD,2024-09-01T00:00:00Z,2024-10-01T00:00:00Z,Usage,1.25,1.25,2024-09-30 00:00:00,2024-09-30 01:00:00,AWS,ring-%s,%s', i, repeat('a charge described at length ', 30))
      FROM generate_series(1, 9000) AS i;
  CHECKPOINT});
my $pages = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.focus_staging') / current_setting('block_size')::int});
ok($pages > 1024, "the staged file ($pages pages) takes more than half the shared buffers");
$node->restart;

is($node->safe_psql('postgres', q{SELECT inserted || ' ' || skipped FROM llm_econ.load_focus(source => 'ring')}),
  '9000 0', 'load_focus stores the 9,000 lines');
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || count(DISTINCT resource_id) || ' ' || sum(billed_cost) FROM llm_econ.spend}),
  '9000 9000 11250.00', 'each line once, the billed total exact');
is($node->safe_psql('postgres', q{SELECT count(*) FROM llm_econ.focus_staging}), 0, 'the staged lines are deleted');

$node->stop;
done_testing();
