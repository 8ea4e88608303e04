#!/usr/bin/perl
# gen_update.pl: copies named function definitions (and their COMMENT ON) from the SQL sources into an update script, as CREATE OR REPLACE.
#
# Usage: perl src/gen_update.pl "name1 name2 ..." src/sql/a.sql src/sql/b.sql ... > part.sql
#
# An update script must give existing objects their new bodies; taking them from the same
# source files as the install script keeps one definition of each function.  A definition is
# the text from "CREATE FUNCTION llm_econ.NAME(" to the statement's end (the closing "$$;" of
# a body, or the first line ending in ";" for a C function), and the "COMMENT ON FUNCTION
# llm_econ.NAME(" statement after it.  Every name must be found exactly once.
use strict;
use warnings;

my ($names, @files) = @ARGV;
die "usage: $0 \"names\" files...\n" unless defined $names && @files;
my %want = map { $_ => 0 } split ' ', $names;

for my $file (@files) {
    open my $fh, '<', $file or die "$file: $!\n";
    my @lines = <$fh>;
    close $fh;
    for (my $i = 0; $i < @lines; $i++) {
        next unless $lines[$i] =~ /^CREATE FUNCTION llm_econ\.(\w+)\(/ && exists $want{$1};
        my $name = $1;
        $want{$name}++;
        my @def;
        my $in_body = 0;
        for (; $i < @lines; $i++) {
            push @def, $lines[$i];
            my $dollars = () = $lines[$i] =~ /\$\$/g;
            $in_body = !$in_body if $dollars % 2;
            last if !$in_body && $lines[$i] =~ /;\s*$/;
        }
        $def[0] =~ s/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION/;
        print "-- from $file\n", @def;
        # its COMMENT ON, if it follows
        for (my $j = $i + 1; $j < @lines; $j++) {
            last if $lines[$j] =~ /^CREATE /;
            next unless $lines[$j] =~ /^COMMENT ON FUNCTION llm_econ\.\Q$name\E\(/;
            for (; $j < @lines; $j++) {
                print $lines[$j];
                last if $lines[$j] =~ /;\s*$/;
            }
            last;
        }
        print "\n";
    }
}
for my $n (sort keys %want) {
    die "$0: function $n found $want{$n} times, expected once\n" if $want{$n} != 1;
}
