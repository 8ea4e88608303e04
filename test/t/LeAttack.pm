# LeAttack.pm: the TAP tests' attack runner: one statement as a role with no grants, in a fresh backend under a 1 s statement_timeout, with its SQLSTATE, wall time and the backend's peak memory.
package LeAttack;
use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(attack_as);

# Run $sql as $role (default mallory) on $node in a fresh backend under a 1 s statement_timeout;
# return the SQLSTATE ('ok' if it succeeded), the statement's wall time (psql's \timing), the
# backend's peak resident memory in MB (VmHWM, read by the superuser from /proc/self/status of
# the same backend afterwards) and the error message ('' if none).
sub attack_as
{
  my ($node, $sql, $role) = @_;
  $role //= 'mallory';
  my $script = qq{\\set VERBOSITY verbose
SET ROLE $role;
SET statement_timeout = '1s';
\\timing on
$sql;
\\timing off
RESET statement_timeout;
RESET ROLE;
SELECT 'vmhwm ' || (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\\s*(\\d+) kB'))[1];
};
  my ($stdout, $stderr);
  $node->psql('postgres', $script, stdout => \$stdout, stderr => \$stderr, on_error_stop => 0,
              extra_params => ['-X']);
  my ($code) = $stderr =~ /ERROR:\s+([0-9A-Z]{5}):/;
  my ($msg) = $stderr =~ /ERROR:\s+[0-9A-Z]{5}:\s+([^\n]*)/;
  my @times = ($stdout =~ /Time: ([0-9.]+) ms/g);
  my ($kb) = $stdout =~ /vmhwm (\d+)/;
  return ($code // 'ok', ($times[-1] // 0) / 1000, ($kb // 0) / 1024, $msg // '');
}

1;
