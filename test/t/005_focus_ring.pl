# TAP test: load_focus reads a staged file through a ring of shared buffers (a file many times the ring leaves at most the ring of its pages cached) and still stores every line once.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('ring');
$node->init;
# 16 MB of shared buffers: 2,048 buffers, so a bulk ring is 256 of them (an eighth).
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\ntimezone = 'UTC'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION llm_econ');
my ($rc, $out, $err) = $node->psql('postgres', 'CREATE EXTENSION pg_buffercache');
if ($rc != 0)
{
  $node->stop;
  plan skip_all => "pg_buffercache is not available here ($err)";
}

# The ring PostgreSQL gives a bulk write: 16 MB, at most an eighth of the buffers.
my $ring = $node->safe_psql('postgres',
  q{SELECT least(setting::int / 8, 16 * 1024 * 1024 / current_setting('block_size')::int) FROM pg_settings WHERE name = 'shared_buffers'});
is($ring, 256, 'the bulk ring is 256 buffers of the 2,048');

# 9,000 lines of about 900 bytes, staged by INSERT (which keeps every page cached), then the
# server restarted: the load reads every staged page from outside the shared buffers.
$node->safe_psql('postgres', q{
  INSERT INTO llm_econ.focus_staging (line)
    VALUES ('BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,ChargeDescription');
  INSERT INTO llm_econ.focus_staging (line)
    SELECT format('1.25,1.25,2024-09-30 00:00:00,2024-09-30 01:00:00,AWS,ring-%s,%s', i, repeat('a charge described at length ', 30))
      FROM generate_series(1, 9000) AS i;
  CHECKPOINT});
my $pages = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.focus_staging') / current_setting('block_size')::int});
ok($pages > 4 * $ring, "the staged file ($pages pages) is more than four rings");
$node->restart;

my $staged_buffers = q{
  SELECT count(*) FROM pg_buffercache b
   WHERE b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND b.relfilenode = pg_relation_filenode('llm_econ.focus_staging') AND b.relforknumber = 0};
is($node->safe_psql('postgres', $staged_buffers), 0, 'after the restart no staged page is cached');

is($node->safe_psql('postgres', q{SELECT inserted || ' ' || skipped FROM llm_econ.load_focus(source => 'ring')}),
  '9000 0', 'load_focus stores the 9,000 lines');
# What the load left cached of the staged file (before anything else reads it): at most its ring
# (it was read through one), not the whole file.
my $cached = $node->safe_psql('postgres', $staged_buffers);
ok($cached > 0 && $cached <= $ring, "the load left $cached of the $pages staged pages cached (at most the ring, $ring)");
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || count(DISTINCT resource_id) || ' ' || sum(billed_cost) FROM llm_econ.spend}),
  '9000 9000 11250.00', 'each line once, the billed total exact');
is($node->safe_psql('postgres', q{SELECT count(*) FROM llm_econ.focus_staging}), 0, 'the staged lines are deleted');

$node->stop;
done_testing();
