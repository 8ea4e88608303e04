#!/usr/bin/env bash
# test/check_docs.sh: checks of the release documents no other test reads: every CHANGELOG.md line
# is at most 120 characters (one short line per user-visible change), and META.json's versions
# agree with each other and are not older than the control file's default_version.
# Run from anywhere: bash test/check_docs.sh   (exit 1 and a message per failure; perl only)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
exec perl -CSD -Mutf8 -e '
use strict; use warnings;
my $fail = 0;
open(my $c, "<:encoding(UTF-8)", "CHANGELOG.md") or die "CHANGELOG.md: $!";
while (my $l = <$c>) { chomp $l; if (length($l) > 120) { printf "CHANGELOG.md:%d: %d characters (at most 120)\n", $., length($l); $fail = 1; } }
open(my $f, "<", "llm_econ.control") or die; my ($control) = join("", <$f>) =~ /^default_version = \x27(.*)\x27/m;
open(my $m, "<", "META.json") or die; my $meta = join("", <$m>); $meta =~ s/"meta-spec"\s*:\s*\{[^}]*\}//s;
my %v = map { $_ => 1 } ($meta =~ /"version"\s*:\s*"([^"]+)"/g);
my @v = sort keys %v;
my $key = sub { sprintf "%05d%05d%05d", split /\./, $_[0] };
if (@v != 1) { print "META.json names more than one version: @v\n"; $fail = 1; }
elsif ($key->($v[0]) lt $key->($control)) { print "META.json says $v[0], older than the control file\x27s $control\n"; $fail = 1; }
print "check_docs: ", ($fail ? "FAILED" : "ok (META.json $v[0], control $control)"), "\n";
printf "%d passed, %d failed\n", $fail ? 0 : 1, $fail ? 1 : 0;
exit $fail;'
