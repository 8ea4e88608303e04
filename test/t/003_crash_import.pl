# TAP test: kill -9 of the server in the middle of a big price import leaves committed snapshots intact and nothing of the import.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
# fsync on: committed means on disk, as in production.  Statements are not logged (the generated
# catalogs are megabytes).
$node->append_conf('postgresql.conf', "fsync = on\ntimezone = 'UTC'\nlog_statement = none\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION llm_econ');

# A generated SkyPilot catalog as a SQL expression: $row (a SQL expression of i) for i in 1..$rows,
# every tenth i missing when $drop (so that the next snapshot withdraws those machines).
sub catalog_sql
{
  my ($header, $row, $rows, $drop) = @_;
  my $where = $drop ? 'WHERE i % 10 <> 0' : '';
  return "(SELECT '$header' || E'\\n' || string_agg($row, E'\\n' ORDER BY i) FROM generate_series(1, $rows) AS i $where)";
}
my $lambda_header = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice';
sub lambda_sql
{
  my ($rows, $seed, $drop) = @_;
  # two machine types per region (1x H100 PCIe, 8x A100 80GB), prices varying with $seed
  my $row = "format('gpu_1x_h100_pcie,H100,1.0,26,200,%s,lam-%s,,' || E'\\n' || 'gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,240,1800,%s,lam-%s,,', "
    . "round((2 + ((i * $seed) % 50) * 0.01)::numeric, 2), i, round((12 + ((i * $seed) % 70) * 0.05)::numeric, 2), i)";
  return catalog_sql($lambda_header, $row, $rows, $drop);
}
my $aws_header = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,AvailabilityZone,SpotPrice';
sub aws_sql
{
  my ($rows) = @_;
  # four machine types per region, on-demand and spot: 8 candidate observations per region
  my $row = "format('p5.48xlarge,H100,8,192,2048,%s,aws-%s,aws-%s-a,%s' || E'\\n' || 'p4d.24xlarge,A100,8,96,1152,%s,aws-%s,aws-%s-a,%s' || E'\\n' || "
    . "'g5.xlarge,A10G,1,4,16,%s,aws-%s,aws-%s-a,%s' || E'\\n' || 'g6.xlarge,L4,1,4,16,%s,aws-%s,aws-%s-a,%s', "
    . "98.32 + (i % 13), i, i, 40 + (i % 11), 32.77 + (i % 7), i, i, 12 + (i % 5), 1.006 + (i % 3) * 0.1, i, i, 0.4 + (i % 4) * 0.01, "
    . "0.805 + (i % 9) * 0.01, i, i, 0.3 + (i % 6) * 0.01)";
  return catalog_sql($aws_header, $row, $rows, 0);
}
# A generated long-format history, $lines lines (machine, region) over one month, staged.
sub stage_sql
{
  my ($cloud, $lines, $from, $to) = @_;
  return "INSERT INTO llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
            price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour)
          SELECT '$from', '$to', '$cloud', 'r-' || i, 'g2-standard-24', 'L4', '2',
                 (2 + (i % 17) * 0.01)::text, (0.7 + (i % 5) * 0.01)::text, '', ''
            FROM generate_series(1, $lines) AS i";
}

# ---- committed snapshots -----------------------------------------------------------------------
my $t0 = time;
$node->safe_psql('postgres', 'SELECT * FROM llm_econ.import_skypilot_catalog(\'lambda\', ' . lambda_sql(1500, 7, 0) . ", '2024-03-01')");
$node->safe_psql('postgres', 'SELECT * FROM llm_econ.import_skypilot_catalog(\'lambda\', ' . lambda_sql(1500, 11, 1) . ", '2024-04-01')");
$node->safe_psql('postgres', stage_sql('smallcloud', 300, '2024-05-01T00:00:00Z', '2024-06-01T00:00:00Z')
                             . "; SELECT * FROM llm_econ.load_price_history(source => 'small history')");

# What must survive: per source and instant, the rows and their checksum; the whole table, the
# series registry and the staging table.
my %state = (
  snapshots => q{SELECT string_agg(format('%s @ %s: %s rows %s', source, observed_at, n, h), E'\n' ORDER BY source, observed_at)
                   FROM (SELECT source, observed_at, count(*) AS n, md5(string_agg(p::text, ',' ORDER BY id)) AS h
                           FROM llm_econ.price_snapshot p WHERE NOT builtin GROUP BY 1, 2) s},
  table     => q{SELECT count(*) || ' ' || md5(string_agg(p::text, ',' ORDER BY id)) FROM llm_econ.price_snapshot p},
  series    => q{SELECT count(*) || ' ' || md5(string_agg(s::text, ',' ORDER BY s::text)) FROM llm_econ.price_series s},
  staging   => q{SELECT count(*) || ' ' || coalesce(md5(string_agg(s::text, ',' ORDER BY id)), '-') FROM llm_econ.price_history_staging s},
);
sub snapshot_state { my %r; $r{$_} = $node->safe_psql('postgres', $state{$_}) for keys %state; return \%r; }

my $committed = snapshot_state();
my @snap_lines = split /\n/, $committed->{snapshots};
is(scalar(@snap_lines), 3, 'setup: three committed snapshots (two lambda catalogs, the second with withdrawals; one history)');
like($committed->{snapshots}, qr/lambda\) \@ 2024-04-01 00:00:00\+00: \d+ rows/, 'setup: the second lambda catalog changed prices');
note("committed snapshots:\n$committed->{snapshots}");

# Kill the import's backend and the postmaster at once (then every other server process), wait
# until they are gone, restart; returns the log offset where the restart begins.
sub children_of
{
  my ($ppid) = @_;
  my @kids;
  for my $stat (glob '/proc/[0-9]*/stat')
  {
    open my $fh, '<', $stat or next;
    my $line = <$fh>;
    close $fh;
    next unless defined $line && $line =~ /^(\d+) \(.*\) \S+ (\d+) /s;
    push @kids, $1 if $2 == $ppid;
  }
  return @kids;
}
# Gone means reaped, not merely dead: the new postmaster takes a zombie holding the old PID for
# a running server.
sub alive
{
  my ($pid) = @_;
  return -e "/proc/$pid";
}
sub crash_and_restart
{
  my ($backend) = @_;
  my $pm = $node->{_pid};
  my @kids = children_of($pm);
  kill 'KILL', $backend;
  $node->kill9;                       # SIGKILL to the postmaster
  kill 'KILL', @kids;                 # and to whatever else it had started
  for (1 .. 300) { last unless grep { alive($_) } ($backend, $pm, @kids); usleep(100_000); }
  ok(!(grep { alive($_) } ($backend, $pm, @kids)), 'every server process is gone after kill -9');
  my $offset = -s $node->logfile;
  $node->start;
  return $offset;
}

# The output of a background session whose server was killed, then the session ended (psql has
# lost its connection: writing \q to it would fail with a broken pipe).
sub finish_session
{
  my ($bg) = @_;
  eval { $bg->{run}->pump_nb(); 1 };
  my $out = $bg->{stdout};
  eval { $bg->{run}->kill_kill(grace => 5); 1 };
  return $out;
}

# Start $sql in a background session and wait until it is writing price_snapshot (the relation
# grows beyond its committed size), so that the kill lands in the middle of the insert.
sub start_and_wait_for_writes
{
  my ($sql, $what) = @_;
  my $size0 = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.price_snapshot')});
  my $bg = $node->background_psql('postgres', on_error_stop => 0);
  my $backend = $bg->query_safe('SELECT pg_backend_pid()');
  $bg->query_until(qr/started/, "\\echo started\n$sql;\n\\echo import finished\n");
  my $grew = 0;
  for (1 .. 1200)
  {
    my $size = $node->safe_psql('postgres', q{SELECT pg_relation_size('llm_econ.price_snapshot')});
    if ($size > $size0) { $grew = 1; last; }
    usleep(100_000);
  }
  ok($grew, "$what: the import was inserting rows when the server was killed");
  return ($bg, $backend);
}

# ---- crash 1: a SkyPilot catalog of 100,000 machines (200,000 candidate observations) -------------
my ($bg, $backend) = start_and_wait_for_writes(
  'SELECT * FROM llm_econ.import_skypilot_catalog(\'aws\', ' . aws_sql(25000) . ", '2024-07-01')", 'SkyPilot import');
my $offset = crash_and_restart($backend);
unlike(finish_session($bg), qr/import finished/, 'SkyPilot import: it had not finished when the server was killed');
ok($node->log_contains(qr/database system was (interrupted|not properly shut down)/, $offset), 'crash 1: the restart ran crash recovery');

my $after = snapshot_state();
is($after->{snapshots}, $committed->{snapshots}, 'crash 1: every committed snapshot intact (rows per instant and checksums)');
is($after->{table}, $committed->{table}, 'crash 1: price_snapshot exactly as committed (count and checksum)');
is($after->{series}, $committed->{series}, 'crash 1: price_series exactly as committed');
is($after->{staging}, $committed->{staging}, 'crash 1: staging as before');
is($node->safe_psql('postgres', q{SELECT count(*) FROM llm_econ.price_snapshot WHERE observed_at = '2024-07-01' OR provider = 'aws'}),
   '0', 'crash 1: no row of the half-done import');

# ---- crash 2: a big staged history, staged and committed, then loaded ---------------------------
$node->safe_psql('postgres', stage_sql('bigcloud', 40000, '2024-08-01T00:00:00Z', '2024-09-01T00:00:00Z'));
my $staged = snapshot_state();
like($staged->{staging}, qr/^40000 /, 'setup: 40,000 history lines staged and committed');
($bg, $backend) = start_and_wait_for_writes("SELECT * FROM llm_econ.load_price_history(source => 'big history')", 'staged load');
$offset = crash_and_restart($backend);
unlike(finish_session($bg), qr/import finished/, 'staged load: it had not finished when the server was killed');
ok($node->log_contains(qr/database system was (interrupted|not properly shut down)/, $offset), 'crash 2: the restart ran crash recovery');

$after = snapshot_state();
is($after->{snapshots}, $committed->{snapshots}, 'crash 2: every committed snapshot intact (rows per instant and checksums)');
is($after->{table}, $committed->{table}, 'crash 2: price_snapshot exactly as committed');
is($after->{series}, $committed->{series}, 'crash 2: price_series exactly as committed');
is($after->{staging}, $staged->{staging}, 'crash 2: the staged lines are all still there, unchanged');
is($node->safe_psql('postgres', q{SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'big history' OR provider = 'bigcloud'}),
   '0', 'crash 2: no row of the half-done load');

# ---- the server takes imports again ------------------------------------------------------------
is($node->safe_psql('postgres', q{SELECT inserted || ' ' || skipped FROM llm_econ.import_skypilot_catalog('aws', '} . $aws_header . q{
p5.48xlarge,H100,8,192,2048,98.32,aws-1,aws-1-a,40.00
g6.xlarge,L4,1,4,16,0.805,aws-1,aws-1-a,
', '2024-07-01')}), '3 0', 'after restart: the crashed SkyPilot import, redone at its instant, stores its rows');
$node->safe_psql('postgres', 'DELETE FROM llm_econ.price_history_staging');
$node->safe_psql('postgres', stage_sql('bigcloud', 50, '2024-08-01T00:00:00Z', '2024-09-01T00:00:00Z'));
is($node->safe_psql('postgres', q{SELECT inserted || ' ' || skipped FROM llm_econ.load_price_history(source => 'big history')}),
   '100 0', 'after restart: a staged load stores its rows');
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || (SELECT count(*) FROM llm_econ.price_history_staging)
                                    FROM llm_econ.price_snapshot WHERE provider IN ('aws', 'bigcloud')}),
   '103 0', 'after restart: exactly the new rows are stored and the staging table is emptied');
is($node->safe_psql('postgres', $state{snapshots}) =~ /lambda\) \@ 2024-04-01/ ? 'kept' : 'lost', 'kept',
   'the committed snapshots are still there after the new imports');
is($node->safe_psql('postgres', q{SELECT llm_econ.price_at('H100-SXM5', 'aws', 'spot', '2024-07-02', 'aws-1')}),
   '5.00', 'price_at answers from the import made after the restart');
note(sprintf('003 took %d s', time - $t0));

done_testing();
