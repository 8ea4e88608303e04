#!/usr/bin/perl
# check_sql.pl: checks the SQL source's layout rules: every function, view, trigger and policy defined in one place, src/sql replaceable, no minifier.
#
# Usage: perl src/check_sql.pl [REPO]          (default: the current directory)
#
# The install script is src/schema/*.sql (stateful objects, install form) followed by src/sql/*.sql
# (replaceable code); the update from the previous release is src/migrate/update_head.sql, that
# release's migration, all of src/sql and src/migrate/update_tail.sql (docs/internals.md).  That only
# works if the sources keep to these rules, which this script checks (`make` runs it before building
# the scripts, so a source that breaks one fails the build, naming FILE:LINE):
#   1. No function, view, trigger or policy is defined in two places: across src/schema, src/sql and
#      src/migrate, each is created by exactly one statement.  (Released scripts, src/update/*.sql
#      and test/upgrade/*.sql, are frozen history and not read.)  A function is named by its schema,
#      name and argument types; a trigger or policy by its name and table.
#   2. Every statement of src/sql can run at install and again on every update: CREATE OR REPLACE
#      FUNCTION, VIEW or TRIGGER; CREATE POLICY right after DROP POLICY IF EXISTS of the same policy;
#      COMMENT ON; GRANT; REVOKE.
#   3. src/schema holds only stateful objects in install form (no OR REPLACE, no view, trigger or
#      policy); a function there is one a column calls (DEFAULT, GENERATED), needed before src/sql runs.
#   4. The shipped scripts are the sources concatenated: the Makefile names no minifier and
#      src/minify_sql.pl does not exist.
# Only core Perl modules are used.

use strict;
use warnings;

my $repo = $ARGV[0] // '.';
my @errors;
sub fail_at { push @errors, "$_[0]: $_[1]" }

# Top-level statements of a SQL text, each as [line number of its first token, text], skipping
# comments, quoted strings, quoted identifiers, dollar-quoted bodies and BEGIN ATOMIC ... END bodies.
sub statements
{
  my ($text) = @_;
  my (@out, $start, $line_at_start);
  my $line = 1;
  my $i = 0;
  my $n = length $text;
  while ($i < $n)
  {
    my $c = substr($text, $i, 1);
    if (!defined $start)
    {
      if ($c eq "\n") { $line++; $i++; next; }
      if ($c =~ /\s/) { $i++; next; }
      if (substr($text, $i, 2) eq '--') { my $j = index($text, "\n", $i); $i = $j < 0 ? $n : $j; next; }
      ($start, $line_at_start) = ($i, $line);
      if ($c eq '\\')    # a psql meta-command: one line
      {
        my $j = index($text, "\n", $i); $j = $n if $j < 0;
        push @out, [$line_at_start, substr($text, $start, $j - $start)];
        undef $start; $i = $j; next;
      }
    }
    if ($c eq "\n") { $line++; $i++; next; }
    if (substr($text, $i, 2) eq '--') { my $j = index($text, "\n", $i); $i = $j < 0 ? $n : $j; next; }
    if ($c eq "'" || $c eq '"')
    {
      my $j = $i + 1;
      while (1)
      {
        my $k = index($text, $c, $j);
        die "unterminated $c quote from line $line\n" if $k < 0;
        if (substr($text, $k + 1, 1) eq $c) { $j = $k + 2; next; }
        $line += () = substr($text, $i, $k + 1 - $i) =~ /\n/g;
        $i = $k + 1;
        last;
      }
      next;
    }
    if ($c eq '$' && substr($text, $i) =~ /\A(\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$)/)
    {
      my $tag = $1;
      my $k = index($text, $tag, $i + length $tag);
      die "unterminated $tag body from line $line\n" if $k < 0;
      $line += () = substr($text, $i, $k + length($tag) - $i) =~ /\n/g;
      $i = $k + length $tag;
      next;
    }
    if ($c eq ';')
    {
      my $stmt = substr($text, $start, $i + 1 - $start);
      # a BEGIN ATOMIC body ends at END; (its inner statements end with ; too)
      if ($stmt =~ /\bBEGIN\s+ATOMIC\b/i && $stmt !~ /(?:^|\n|;\s)END;\z/) { $i++; next; }
      push @out, [$line_at_start, $stmt];
      undef $start;
    }
    $i++;
  }
  return @out;
}

# The argument types of a CREATE FUNCTION's parameter list (without OUT parameters and defaults).
sub arg_types
{
  my ($list) = @_;
  my @args;
  my ($depth, $cur) = (0, '');
  for my $ch (split //, $list)
  {
    $depth++ if $ch eq '(';
    $depth-- if $ch eq ')';
    if ($ch eq ',' && $depth == 0) { push @args, $cur; $cur = ''; next; }
    $cur .= $ch;
  }
  push @args, $cur if $cur =~ /\S/;
  my @types;
  for my $a (@args)
  {
    $a =~ s/\s+(DEFAULT\b|=).*//si;
    my @w = split ' ', $a;
    next unless @w;
    my $mode = $w[0] =~ /^(IN|OUT|INOUT|VARIADIC)$/i ? uc shift @w : 'IN';
    next if $mode eq 'OUT';
    shift @w if @w > 1;    # the parameter's name
    push @types, lc join(' ', @w);
  }
  return join(', ', @types);
}

my %defined;    # object -> "file:line" of its definition
sub define
{
  my ($what, $where) = @_;
  if (exists $defined{$what}) { fail_at($where, "$what is already defined at $defined{$what}: define it in one place") }
  else { $defined{$what} = $where }
}

my @files = (glob("$repo/src/schema/*.sql"), glob("$repo/src/sql/*.sql"), glob("$repo/src/migrate/*.sql"));
fail_at("$repo/src", 'no SQL sources found') unless grep { m{/src/sql/} } @files;
for my $file (@files)
{
  open my $fh, '<', $file or die "$file: $!\n";
  my $text = do { local $/; <$fh> };
  close $fh;
  (my $short = $file) =~ s{^\Q$repo\E/}{};
  my $in_sql = $short =~ m{^src/sql/};
  my $in_schema = $short =~ m{^src/schema/};
  my $dropped_policy = '';
  for my $s (statements($text))
  {
    my ($line, $stmt) = @$s;
    my $where = "$short:$line";
    (my $flat = $stmt) =~ s/\s+/ /g;
    if ($flat =~ /^CREATE (OR REPLACE )?FUNCTION ([\w.]+)\s*\((.*)$/i)
    {
      my ($or, $name, $rest) = ($1, lc $2, $3);
      my ($depth, $list) = (1, '');
      for my $ch (split //, $rest) { $depth++ if $ch eq '('; $depth-- if $ch eq ')'; last if $depth == 0; $list .= $ch; }
      # a migration may give a function a placeholder body before changing what it depends on
      # (src/sql defines it again after the migration): functions there are not definitions
      define("function $name(" . arg_types($list) . ")", $where) unless $short =~ m{^src/migrate/\d};
      fail_at($where, 'write CREATE OR REPLACE FUNCTION in src/sql (it runs again on every update)') if $in_sql && !$or;
      fail_at($where, 'src/schema is install form: plain CREATE FUNCTION') if $in_schema && $or;
    }
    elsif ($flat =~ /^CREATE (OR REPLACE )?VIEW ([\w.]+)/i)
    {
      define('view ' . lc $2, $where);
      fail_at($where, 'write CREATE OR REPLACE VIEW in src/sql') if $in_sql && !$1;
      fail_at($where, 'a view is replaceable code: it belongs in src/sql') if $in_schema;
    }
    elsif ($flat =~ /^CREATE (OR REPLACE )?(?:CONSTRAINT )?TRIGGER (\w+) .*? ON ([\w.]+)/i)
    {
      define('trigger ' . lc($2) . ' on ' . lc($3), $where);
      fail_at($where, 'write CREATE OR REPLACE TRIGGER in src/sql') if $in_sql && !$1;
      fail_at($where, 'a trigger is replaceable code: it belongs in src/sql') if $in_schema;
    }
    elsif ($flat =~ /^CREATE POLICY (\w+) ON ([\w.]+)/i)
    {
      my $what = 'policy ' . lc($1) . ' on ' . lc($2);
      define($what, $where);
      fail_at($where, "precede CREATE POLICY in src/sql with DROP POLICY IF EXISTS $1 ON $2") if $in_sql && $dropped_policy ne $what;
      fail_at($where, 'a policy is replaceable code: it belongs in src/sql') if $in_schema;
    }
    elsif ($in_sql && $flat =~ /^DROP POLICY IF EXISTS (\w+) ON ([\w.]+);/i)
    {
      $dropped_policy = 'policy ' . lc($1) . ' on ' . lc($2);
      next;
    }
    elsif ($in_sql && $flat !~ /^(COMMENT ON|GRANT|REVOKE) /i)
    {
      my ($head) = $flat =~ /^(\S+(?: \S+)?)/;
      fail_at($where, "src/sql holds replaceable code only (functions, views, triggers, policies, comments, grants); \"$head ...\" is stateful: src/schema (install) and src/migrate (update)");
    }
    $dropped_policy = '';
  }
}

# No minifier: the shipped scripts are the sources as written.
fail_at('src/minify_sql.pl', 'the shipped scripts are not minified: remove it') if -e "$repo/src/minify_sql.pl";
if (open my $mk, '<', "$repo/Makefile")
{
  my $lineno = 0;
  while (my $l = <$mk>) { $lineno++; fail_at("Makefile:$lineno", 'no minifier in the build') if $l =~ /minify/i; }
  close $mk;
}

if (@errors) { print STDERR "check_sql.pl: $_\n" for @errors; exit 1; }
print STDERR 'check_sql.pl: ' . scalar(keys %defined) . " definitions, each in one place\n";
exit 0;
