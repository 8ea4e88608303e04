#!/usr/bin/perl
# minify_sql.pl: strips a built SQL script of what PostgreSQL does not keep (comments, blank lines, indentation), outside literals.
#
# Reads SQL on stdin, writes it on stdout (the Makefile runs it on the install and update
# scripts).  Kept verbatim: string literals ('...', E'...'), quoted identifiers ("...") and
# dollar-quoted bodies ($$...$$, $tag$...$tag$): a function's body is its stored source (\sf
# shows it as written; an updated install must store the same text), a literal is data.  Lines
# starting with a backslash (\echo ... \quit) are kept whole.  Everywhere else, and inside the
# body of a DO block (run once, never stored): -- comments go, runs of spaces and tabs become
# one, lines lose leading and trailing spaces, empty lines go, and so do spaces and line ends
# beside commas and parentheses.  Views and BEGIN ATOMIC
# bodies are stored parsed, so their spacing was never kept.
use strict;
use warnings;

sub minify {
    my ($in) = @_;
    my $out = '';
    pos($in) = 0;
    my $bol = 1;                                          # at the beginning of a line
    while (pos($in) < length $in) {
        if ($bol && $in =~ /\G(\\[^\n]*)/gc) {
            $out .= $1;                                   # a psql meta-command line
        } elsif ($in =~ /\G((?<![\w\$])[Ee]'(?:[^'\\]|\\.|'')*')/gcs
              || $in =~ /\G('(?:[^']|'')*')/gcs
              || $in =~ /\G("(?:[^"]|"")*")/gcs) {
            $out .= $1;                                   # a literal, a quoted identifier
        } elsif ($in =~ /\G(?<![\w\$])(\$(?:[A-Za-z_][A-Za-z_0-9]*)?\$)/gc) {
            my $tag = $1;
            my $start = pos($in);
            my $end = index($in, $tag, $start);
            die "minify_sql.pl: unterminated $tag\n" if $end < 0;
            my $body = substr($in, $start, $end - $start);
            $body = ($body =~ /\A\s*\n/ ? "\n" : '') . minify($body)
                if $out =~ /(?:^|[\s;])DO\s*\z/;          # a DO block's code: not stored
            $out .= $tag . $body . $tag;
            pos($in) = $end + length $tag;
        } elsif ($in =~ /\G--[^\n]*/gc) {
            # a comment
        } elsif ($in =~ /\G\/\*/gc) {
            die "minify_sql.pl: /* comments are not handled\n";
        } elsif ($in =~ /\G[ \t\r]*\n[ \t\r\n]*/gc) {
            $out =~ s/[ \t]+\z//;
            $out .= "\n" if length $out && $out !~ /[\n,(]\z/;
            $bol = 1;
            next;
        } elsif ($in =~ /\G[ \t\r]+/gc) {
            $out .= ' ' unless $bol || $out =~ /[,()]\z/ || $in =~ /\G[,()]/;
        } elsif ($in =~ /\G([,()])/gc) {
            my $p = $1;
            $out =~ s/ \z//;
            $out =~ s/\n\z// if $p ne '(';
            $out .= $p;
        } elsif ($in =~ /\G([^'"\$\-\/\\ \t\r\nEe,()]+|.)/gcs) {
            $out .= $1;
        }
        $bol = 0;
    }
    $out =~ s/[ \t]+\z//;
    return $out;
}

local $/;
my $sql = minify(scalar <STDIN>);
print $sql, ($sql =~ /\n\z/ ? '' : "\n");
