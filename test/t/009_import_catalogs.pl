# TAP test: ./run.sh import-catalogs (src/import_catalogs.sh) on a local git checkout built from the shared samples: per-cloud report, commit dates, idempotent, any order, --at, refusals.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy qw(copy);
use File::Path qw(make_path);

my $repo = $ENV{TESTDIR} // '.';
my $script = "$repo/src/import_catalogs.sh";
my $data = "$repo/test/data/skypilot";
plan skip_all => 'git is not installed' if system('git --version >/dev/null 2>&1') != 0;

my $node = PostgreSQL::Test::Cluster->new('catalogs');
$node->init;
$node->append_conf('postgresql.conf', "timezone = 'UTC'\n");
$node->start;
for my $db ('ordered', 'reverse', 'plain')
{
  $node->safe_psql('postgres', "CREATE DATABASE $db");
  $node->safe_psql($db, 'CREATE EXTENSION llm_econ');
}

# A checkout laid out as skypilot-catalog's: catalogs/vN/<cloud>/vms.csv, two commits.
# A (2024-01-15): lambda = test/data/skypilot/lambda_2024-01-15.csv, runpod = the shared RunPod
# sample, and an older schema's lambda file (v4: the shared Lambda sample of 2023-06, 169 rows)
# that must be left alone; B (2024-02-15): lambda = lambda_2024-02-15.csv, runpod unchanged.
my $co = PostgreSQL::Test::Utils::tempdir('checkout');
make_path("$co/catalogs/v4/lambda", "$co/catalogs/v5/lambda", "$co/catalogs/v5/runpod", "$co/catalogs/v5/kubernetes");
sub git
{
  my ($date, @args) = @_;
  local $ENV{GIT_AUTHOR_DATE} = $date;
  local $ENV{GIT_COMMITTER_DATE} = $date;
  my $rc = system('git', '-C', $co, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', @args);
  die "git @args failed" if $rc != 0;
}
git('2024-01-15T06:00:00Z', 'init', '-q');
copy("$data/lambda_2024-01-15.csv", "$co/catalogs/v5/lambda/vms.csv") or die;
copy("$data/runpod_2024-01-08.csv", "$co/catalogs/v5/runpod/vms.csv") or die;
copy("$data/lambda_2023-06-15.csv", "$co/catalogs/v4/lambda/vms.csv") or die;
# a cloud directory without prices (catalogs/v5/kubernetes has images.csv only) is not a catalog
open(my $fh, '>', "$co/catalogs/v5/kubernetes/images.csv") or die; print $fh "Tag,Region\n"; close $fh;
git('2024-01-15T06:00:00Z', 'add', '-A');
git('2024-01-15T06:00:00Z', 'commit', '-q', '-m', 'A');
my $commit_a = `git -C $co rev-parse HEAD`; chomp $commit_a;
copy("$data/lambda_2024-02-15.csv", "$co/catalogs/v5/lambda/vms.csv") or die;
git('2024-02-15T06:00:00Z', 'commit', '-q', '-a', '-m', 'B');
my $commit_b = `git -C $co rev-parse HEAD`; chomp $commit_b;

sub import_catalogs
{
  my ($db, $dir, @opts) = @_;
  my ($stdout, $stderr);
  my $ok = IPC::Run::run(['bash', $script, $dir, @opts, '--', '-h', $node->host, '-p', $node->port, '-d', $db],
                         '>', \$stdout, '2>', \$stderr);
  return ($ok ? 0 : ($? >> 8), $stdout, $stderr);
}
# what the importer stored: every row of every series, with its sightings
my $rows_sql = "SELECT string_agg(concat_ws('|', provider, sku, region, pricing, instance_type, observed_at, usd_per_gpu_hour,
                  last_seen_at, suspect IS NOT NULL), E'\\n' ORDER BY provider, sku, region, pricing, instance_type, observed_at)
                  FROM llm_econ.price_snapshot WHERE source_kind = 'catalog'";

# in date order: A, then B
git('2024-02-15T06:00:00Z', 'checkout', '-q', $commit_a);
my ($rc, $out, $err) = import_catalogs('ordered', $co);
is($rc, 0, 'checkout A imports') or diag($out, $err);
like($out, qr/^ lambda \| catalogs\/v5\/lambda\/vms\.csv \| 2024-01-15 06:00:00\+00 \|\s+26 \|\s+0 \|/m,
     'lambda: the 26 prices of v5 stored (not v4\'s), observed at the commit date of its file');
like($out, qr/^ runpod \| catalogs\/v5\/runpod\/vms\.csv \| 2024-01-15 06:00:00\+00 \|\s+640 \|/m, 'runpod: 640 prices stored');
unlike($out, qr/kubernetes/, 'a cloud directory without vms.csv is not imported');
git('2024-02-15T06:00:00Z', 'checkout', '-q', $commit_b);
($rc, $out, $err) = import_catalogs('ordered', $co);
is($rc, 0, 'checkout B imports') or diag($out, $err);
like($out, qr/^ lambda \| catalogs\/v5\/lambda\/vms\.csv \| 2024-02-15 06:00:00\+00 \|/m, 'lambda of B: observed at 2024-02-15');
like($out, qr/^ runpod \| catalogs\/v5\/runpod\/vms\.csv \| 2024-01-15 06:00:00\+00 \|\s+0 \|\s+640 \|/m,
     'runpod unchanged since A: its own commit date, nothing stored again');
my $ordered = $node->safe_psql('ordered', $rows_sql);

# the same checkout again: nothing new
($rc, $out, $err) = import_catalogs('ordered', $co);
is($rc, 0, 'checkout B again');
like($out, qr/^ lambda \|[^|]+\|[^|]+\|\s+0 \|/m, 'lambda again: 0 stored');
like($out, qr/^ runpod \|[^|]+\|[^|]+\|\s+0 \|/m, 'runpod again: 0 stored');
is($node->safe_psql('ordered', $rows_sql), $ordered, 'importing a checkout twice leaves the same rows');

# in reverse order: B, then A (a backfill): the same rows, sightings included
($rc, $out, $err) = import_catalogs('reverse', $co);
is($rc, 0, 'reverse: checkout B first');
git('2024-02-15T06:00:00Z', 'checkout', '-q', $commit_a);
($rc, $out, $err) = import_catalogs('reverse', $co);
is($rc, 0, 'reverse: then checkout A') or diag($out, $err);
is($node->safe_psql('reverse', $rows_sql), $ordered, 'B then A stores what A then B stores');
cmp_ok(length($ordered), '>', 1000, 'and that is hundreds of rows');

# a plain directory (no git): --at is needed
my $plain = PostgreSQL::Test::Utils::tempdir('plain');
make_path("$plain/lambda", "$plain/aws");
copy("$data/lambda_2024-03-15.csv", "$plain/lambda/vms.csv") or die;
($rc, $out, $err) = import_catalogs('plain', $plain);
is($rc, 2, 'a directory that is not a git checkout needs --at');
like($err, qr/has no commit \(not a git checkout, or not committed\): give --at TIMESTAMP/, 'and says so');
($rc, $out, $err) = import_catalogs('plain', $plain, '--at', '2024-03-15 00:00+00');
is($rc, 0, '--at 2024-03-15') or diag($out, $err);
like($out, qr/^ lambda \| lambda\/vms\.csv\s+\| 2024-03-15 00:00:00\+00 \|\s+\d+ \|/m, 'observed at the instant given');
is($node->safe_psql('plain', "SELECT DISTINCT observed_at FROM llm_econ.price_snapshot WHERE provider = 'lambda' AND source_kind = 'catalog'"),
   '2024-03-15 00:00:00+00', 'every lambda row at that instant');

# a file of another cloud: that cloud fails, the others go in, the exit status is 1
copy("$data/lambda_2024-05-01.csv", "$plain/aws/vms.csv") or die;
copy("$data/lambda_2024-05-01.csv", "$plain/lambda/vms.csv") or die;
($rc, $out, $err) = import_catalogs('plain', $plain, '--at', '2024-05-01 00:00+00');
is($rc, 1, 'a refused file makes the exit status 1');
like($out, qr/^ aws\s+\| aws\/vms\.csv\s+\| 2024-05-01 00:00:00\+00 \|\s+\|.*the catalog does not fit cloud "aws"/m,
     'aws: refused, with the importer\'s reason');
like($out, qr/^ lambda \| lambda\/vms\.csv\s+\| 2024-05-01 00:00:00\+00 \|\s+\d+ \|/m, 'lambda still imported');
like($err, qr/import_catalogs\.sh: 1 of 2 clouds failed/, 'and the count of failures is said');

# usage errors
($rc, $out, $err) = import_catalogs('plain', $plain, '--at', "2024-01-01'; DROP TABLE x; --");
is($rc, 2, 'an --at that is not a timestamp is refused before any SQL');

$node->stop;
done_testing();
