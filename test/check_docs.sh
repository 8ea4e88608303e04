#!/usr/bin/env bash
# test/check_docs.sh: checks of the release documents no other test reads: every CHANGELOG.md line
# is at most 120 characters (one short line per user-visible change), META.json's versions
# agree with each other and are not older than the control file's default_version, and every
# figure the docs state about the shipped data (how many GPU parts, aliases, seed prices, validation
# and holdout runs, mislabelled history lines) is what data/*.csv holds (issue 45: a doc said
# 16,578 change points where 16,505 ship), and every result row a doc shows is printed by a regression
# test (issue 46).
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
# data/*.csv records (RFC 4180: quoted fields may hold commas, quotes and newlines), header left out
sub csv_records {
  my ($file) = @_;
  open(my $h, "<:encoding(UTF-8)", $file) or die "$file: $!";
  local $/; my $t = <$h>; my (@recs, @f, $field, $q); $field = ""; $q = 0;
  for my $ch (split //, $t) {
    if ($q) { if ($ch eq "\"") { $q = 0; } else { $field .= $ch; } next; }
    if ($ch eq "\"") { $q = 1; next; }   # a doubled quote loses its character: only records are counted
    if ($ch eq ",") { push @f, $field; $field = ""; next; }
    if ($ch eq "\n") { push @f, $field; push @recs, [@f]; @f = (); $field = ""; next; }
    $field .= $ch unless $ch eq "\r";
  }
  if ($field ne "" || @f) { push @f, $field; push @recs, [@f]; }
  shift @recs;
  return @recs;
}
my %n = map { $_ => scalar(csv_records("data/$_.csv")) } qw(gpu_sku gpu_sku_alias price_seed mfu_validation mfu_holdout);
# the GCP history lines that label an 80 GB a2-ultragpu machine A100 (40 GB) in 2022-09..10
$n{ultragpu_a100} = grep { $_->[4] =~ /^a2-ultragpu/ && $_->[5] eq "A100" && $_->[0] =~ /^2022-(09|10)/ } csv_records("data/gcp_gpu_price_history.csv");
# [file, pattern whose first group is the figure, what it counts]
my @figures = (
  ["README.md", qr/\((\d+) GPU parts/, "gpu_sku"],
  ["README.md", qr/mean error 5 % on the (\d+) published runs/, "mfu_validation"],
  ["README.md", qr/\d+ % on\s+(\d+) it was not/, "mfu_holdout"],
  ["README.md", qr/On runs it was not built from the model is much less accurate: (\d+) published runs/, "mfu_holdout"],
  ["docs/prices.md", qr/`gpu_sku`: (\d+) parts/, "gpu_sku"],
  ["docs/prices.md", qr/`gpu_sku_alias`: (\d+) names/, "gpu_sku_alias"],
  ["docs/prices.md", qr/the seed\x27s mid-2024 prices \((\d+) rows dated 2024-06-01/, "price_seed"],
  ["docs/prices.md", qr/(\d+) lines of that file from 2022-09 to 2022-10 label 80 GB/, "ultragpu_a100"],
);
for my $c (@figures) {
  my ($file, $re, $what) = @$c;
  open(my $d, "<:encoding(UTF-8)", $file) or die "$file: $!"; my $text = join("", <$d>);
  if ($text !~ $re) { print "$file: the figure of $what is no longer where this check looks ($re): update test/check_docs.sh\n"; $fail = 1; next; }
  if ($1 != $n{$what}) { printf "%s: says %s for %s; the data hold %d\n", $file, $1, $what, $n{$what}; $fail = 1; }
}
# shipped row counts that change with every data refresh are not written in the docs at all
for my $file ("README.md", glob("docs/*.md")) {
  open(my $d, "<:encoding(UTF-8)", $file) or die "$file: $!"; my $text = join("", <$d>);
  while ($text =~ /([0-9][0-9,]{3,}) (?:shipped )?change points/g) { print "$file: states $1 change points; say where the count is, not the count\n"; $fail = 1; }
}
# every result a doc shows (a row of a psql table in a plain fenced block, or the "-- a | b" comment of
# an SQL block) is a line some regression test prints (expected/*.out; sql/doc_examples.sql runs the
# examples no other test runs as shown); compared with runs of blanks collapsed, a trailing
# "(remark)" and a leading "| " left out (issue 46: docs showed a plan and a calibration the model no
# longer gives)
my $norm = sub { my $s = shift; $s =~ s/\s+\(([^()]|\([^()]*\))*\)\s*$//; $s =~ s/\s+/ /g; $s =~ s/^ | $//g; $s =~ s/^\| //; return $s; };
my %printed;
for my $out (glob("expected/*.out")) {
  open(my $h, "<:encoding(UTF-8)", $out) or die "$out: $!";
  while (my $l = <$h>) { chomp $l; $printed{$norm->($l)} = 1; $printed{$norm->($1)} = 1 if $l =~ /--\s?(.*\|.*)$/; }
}
my $shown = 0;
for my $file ("README.md", glob("docs/*.md")) {
  open(my $d, "<:encoding(UTF-8)", $file) or die "$file: $!"; my ($in, $lang) = (0, "");
  while (my $l = <$d>) {
    chomp $l;
    if ($l =~ /^```(\w*)/) { ($in, $lang) = $in ? (0, "") : (1, $1); next; }
    next unless $in;
    my $row;
    if ($lang eq "sql") { ($row) = $l =~ /--\s?(.*\S.*\|.*)$/; } elsif ($l =~ / \| /) { $row = $l; }
    next unless defined $row;
    $shown++;
    next if $printed{$norm->($row)};
    printf "%s:%d: shows \"%s\", which no regression test prints (expected/*.out): run the example and update the doc\n", $file, $., $norm->($row);
    $fail = 1;
  }
}
print "check_docs: ", ($fail ? "FAILED" : "ok (META.json $v[0], control $control, " . scalar(@figures) . " data figures, $shown example rows)"), "\n";
printf "%d passed, %d failed\n", $fail ? 0 : 1, $fail ? 1 : 0;
exit $fail;'
