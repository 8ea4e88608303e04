# TAP test: the background worker typing a staged FOCUS file stops with its load: a worker terminated mid-load fails the load (nothing stored, every line still staged), a terminated session takes its worker with it, and without a free worker slot the session types the lines itself.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('worker');
$node->init;
$node->append_conf('postgresql.conf', "autovacuum = off\ntimezone = 'UTC'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION llm_econ');

# 200,000 GPU lines staged by the owner (a load of a few seconds).
my $lines = 200000;
my $stage = qq{
  INSERT INTO llm_econ.focus_staging (line)
    VALUES ('BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,SkuPriceDetails,ConsumedQuantity,ConsumedUnit,ResourceId');
  INSERT INTO llm_econ.focus_staging (line)
    SELECT format('1.25,1.25,2025-04-01 00:00:00,2025-04-01 01:00:00,AWS,"{""InstanceType"": ""p5.48xlarge""}",1,Hours,w-%s', i)
      FROM generate_series(1, $lines) AS i};
$node->safe_psql('postgres', $stage);

my $workers = q{SELECT string_agg(pid::text, ' ') FROM pg_stat_activity WHERE backend_type = 'llm_econ focus typing'};

# Start a load in its own session; returns the harness, its output and error.
sub start_load
{
  my ($out, $err) = ('', '');
  my $h = IPC::Run::start(
    [ 'psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
      '-c', 'SET llm_econ.focus_typing_worker = on',
      '-c', q{SELECT inserted || ' ' || skipped FROM llm_econ.load_focus(source => 'worker')} ],
    '<', \undef, '>', \$out, '2>', \$err);
  return ($h, \$out, \$err);
}

# Wait until a typing worker shows up while the load runs; its pid, or '' if the load ended first.
sub find_worker
{
  my ($h) = @_;
  for (my $i = 0; $i < 3000; $i++)
  {
    my $pids = $node->safe_psql('postgres', $workers);
    return $pids if $pids ne '';
    $h->pump_nb;
    return '' unless $h->pumpable;
    usleep(10_000);
  }
  return '';
}

# Wait until no typing worker is left (each leaves when its load detaches).
sub no_worker_left
{
  for (my $i = 0; $i < 300; $i++)
  {
    return 1 if $node->safe_psql('postgres', $workers) eq '';
    usleep(100_000);
  }
  return 0;
}

my $counts = q{SELECT (SELECT count(*) FROM llm_econ.spend) || ' ' || (SELECT count(*) FROM llm_econ.focus_staging)};

# 1. The worker terminated in the middle of the load: the load fails with an error that says so;
# nothing is stored and every line stays staged.
my ($h, $out, $err) = start_load();
my $pid = find_worker($h);
isnt($pid, '', "a typing worker ($pid) runs during the load");
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
$h->finish;
like($$err, qr/the background worker typing the staged lines stopped/, 'the load fails naming the stopped worker');
is($node->safe_psql('postgres', $counts), '0 ' . ($lines + 1), 'nothing stored, every line still staged');
ok(no_worker_left(), 'no typing worker is left');

# 2. The session terminated in the middle of the load: its worker leaves too.
($h, $out, $err) = start_load();
$pid = find_worker($h);
isnt($pid, '', 'a typing worker runs during the second load');
my $session = $node->safe_psql('postgres', q{
  SELECT pid FROM pg_stat_activity
   WHERE backend_type = 'client backend' AND state = 'active' AND query LIKE '%load_focus%' AND pid <> pg_backend_pid()});
ok($session =~ /^\d+$/, "the loading session is $session");
$node->safe_psql('postgres', "SELECT pg_terminate_backend($session)");
$h->finish;
ok(no_worker_left(), 'the worker left with its session');
is($node->safe_psql('postgres', $counts), '0 ' . ($lines + 1), 'still nothing stored, every line still staged');

# 3. The load again, to its end: every line once, typed by the worker (into a new file of spend:
# the failed loads left their pages).
$node->safe_psql('postgres', 'TRUNCATE llm_econ.spend');
is($node->safe_psql('postgres', qq{
  SET llm_econ.focus_typing_worker = on;
  SELECT inserted || ' ' || skipped || ' ' || llm_econ._focus_worker_lines() FROM llm_econ.load_focus(source => 'worker')}),
  "$lines 0 $lines", 'the load stores every line, all typed by the worker');
is($node->safe_psql('postgres', q{SELECT count(DISTINCT resource_id) || ' ' || sum(billed_cost) || ' ' || sum(gpu_hours) FROM llm_econ.spend}),
  "$lines " . (1.25 * $lines) . '.00 ' . (8 * $lines), 'each line once, the totals exact');
ok(no_worker_left(), 'no typing worker is left after the load');
# (on PostgreSQL 15 the worker added spend's pages ahead of the session: compared below with the
# same lines typed by the session, which extends spend itself)
my $pages_worker = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.spend') / 8192});

# 4. No worker slot (max_worker_processes = 0): the session types every line itself.
$node->append_conf('postgresql.conf', "max_worker_processes = 0\n");
$node->restart;
$node->safe_psql('postgres', 'TRUNCATE llm_econ.spend');
$node->safe_psql('postgres', $stage);
is($node->safe_psql('postgres', qq{
  SET llm_econ.focus_typing_worker = on;
  SELECT inserted || ' ' || skipped || ' ' || llm_econ._focus_worker_lines() FROM llm_econ.load_focus(source => 'no slot')}),
  "$lines 0 0", 'without a worker slot the session types every line');
is($node->safe_psql('postgres', $counts), "$lines 0", 'every line stored, none left staged');
my $pages_session = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.spend') / 8192});
ok(abs($pages_worker - $pages_session) <= $pages_session * 0.03 + 8,
  "spend takes $pages_worker pages loaded with the worker, $pages_session without: no pages left over");

$node->stop;
done_testing();
