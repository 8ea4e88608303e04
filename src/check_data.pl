#!/usr/bin/perl
# check_data.pl: validates the CSV files of data/ that the install script loads with COPY.
#
# Usage: perl src/check_data.pl DATADIR
#
# Reads   DATADIR/gpu_sku.csv, gpu_sku_alias.csv, mfu_reference.csv, price_seed.csv,
#         gcp_gpu_price_history.csv, gcp_gpu_price_history_change_points.csv,
#         gcp_gpu_price_history_corrections.csv, price_daily_group.csv and price_daily_summary.csv
# Checks  every value of the hand-compiled tables (types, ranges, required fields, names
#         unique ignoring case, aliases naming a key, sources present) and the columns of
#         the GCP history.  `make` runs it before building the install script, so a
#         malformed file fails the build with FILE:LINE instead of CREATE EXTENSION failing
#         on a user's server.  src/sql/data.sql is what loads the files (COPY ... HEADER MATCH,
#         which also checks the header), so this script writes nothing but row counts to stderr.
#
# Only core Perl modules are used.

use strict;
use warnings;

die "usage: perl $0 DATADIR\n" unless @ARGV == 1;
my $dir = $ARGV[0];
die "$0: $dir is not a directory\n" unless -d $dir;

my %count;       # table -> rows emitted
my %sku_key;     # exact sku key -> 1
my %lc_name;     # lower(sku or alias) -> "file:line" where it was defined
my %norm_sku;    # _name_key(sku or alias) -> the sku it means

gpu_sku();
gpu_sku_alias();
instance_type();
gcp_machine_family();
mfu_reference();
my @prices = price_seed();
emit('price_seed', \@prices);
gcp_staging();
daily_summary();

print STDERR "check_data.pl: " . join(', ', map { "$_ " . ($count{$_} // 0) }
    qw(gpu_sku gpu_sku_alias instance_type gcp_machine_family mfu_reference price_seed gcp_gpu_price_history
       gcp_gpu_price_history_change_points gcp_gpu_price_history_corrections price_daily_group
       price_daily_summary)) . " rows\n";
exit 0;

# ---------------------------------------------------------------------------
# CSV (RFC 4180): comma separated, CRLF or LF line ends, fields optionally in double
# quotes, a doubled quote inside quotes is one quote, quoted fields may hold commas
# and line breaks.  Returns (header arrayref, list of [line number, fields arrayref]).

sub read_csv {
    my ($file) = @_;
    open my $fh, '<:raw', $file or die "$file: cannot open: $!\n";
    local $/;
    my $text = <$fh>;
    close $fh;
    $text = '' unless defined $text;
    $text =~ s/\A\xEF\xBB\xBF//;    # UTF-8 byte order mark
    die "$file: empty file\n" if $text eq '';
    if ($text =~ /([^\x09\x0A\x0D\x20-\x7E])/) {
        my ($byte, $at) = (ord $1, $-[0]);
        my $line = 1 + (() = substr($text, 0, $at) =~ /\n/g);
        die sprintf("%s:%d: byte 0x%02X is not printable ASCII (keep the shipped data ASCII "
                    . "so the extension script is encoding-independent)\n", $file, $line, $byte);
    }

    my @records;
    my $pos    = 0;
    my $len    = length $text;
    my $line   = 1;
    while ($pos < $len) {
        my $start_line = $line;
        my @fields;
        while (1) {
            my $field;
            if (substr($text, $pos, 1) eq '"') {
                # quoted field: up to the next quote not followed by another quote
                $pos++;
                $field = '';
                while (1) {
                    my $q = index($text, '"', $pos);
                    die "$file:$start_line: unterminated quoted field\n" if $q < 0;
                    my $chunk = substr($text, $pos, $q - $pos);
                    $line += () = $chunk =~ /\n/g;
                    $field .= $chunk;
                    $pos = $q + 1;
                    if ($pos < $len && substr($text, $pos, 1) eq '"') {
                        $field .= '"';
                        $pos++;
                        next;
                    }
                    last;
                }
                if ($pos < $len && substr($text, $pos, 1) !~ /[,\r\n]/) {
                    die "$file:$line: text after the closing quote of a field\n";
                }
            }
            else {
                pos($text) = $pos;
                $text =~ /\G([^,\r\n]*)/gc or die "$file:$line: cannot parse\n";
                $field = $1;
                $pos   = pos($text);
                die "$file:$line: quote inside an unquoted field (quote the whole field "
                  . "and double the quote)\n" if index($field, '"') >= 0;
            }
            push @fields, $field;
            if ($pos < $len && substr($text, $pos, 1) eq ',') {
                $pos++;
                next;
            }
            # end of record: CRLF, LF, lone CR, or end of file
            if ($pos < $len) {
                my $c = substr($text, $pos, 1);
                if ($c eq "\r") {
                    $pos++;
                    $pos++ if $pos < $len && substr($text, $pos, 1) eq "\n";
                }
                elsif ($c eq "\n") {
                    $pos++;
                }
                $line++;
            }
            last;
        }
        push @records, [$start_line, \@fields];
    }

    my $hdr = shift @records or die "$file: no header line\n";
    my @header = @{ $hdr->[1] };
    my %seen;
    for my $h (@header) {
        die "$file:1: empty column name in the header\n" if $h eq '';
        die "$file:1: column $h appears twice in the header\n" if $seen{$h}++;
    }
    my @rows;
    for my $r (@records) {
        my ($ln, $f) = @$r;
        next if @$f == 1 && $f->[0] eq '';    # blank line
        die sprintf("%s:%d: %d fields, the header has %d\n", $file, $ln, scalar @$f, scalar @header)
          if @$f != @header;
        my %row;
        @row{@header} = @$f;
        push @rows, [$ln, \%row];
    }
    return (\@header, @rows);
}

# Read a CSV whose header must be exactly @want, in that order.
sub read_table {
    my ($name, @want) = @_;
    my $file = "$dir/$name";
    my ($header, @rows) = read_csv($file);
    my $got = join ',', @$header;
    my $exp = join ',', @want;
    die "$file:1: header is\n  $got\nexpected\n  $exp\n" if $got ne $exp;
    return ($file, @rows);
}

# ---------------------------------------------------------------------------
# Value checks.  Each returns the value as SQL would read it, or dies with file:line.

sub sql_string {
    my ($s) = @_;
    $s =~ s/'/''/g;
    return "'$s'";
}

sub v_text {    # text, empty -> NULL unless required
    my ($where, $col, $v, $required) = @_;
    if ($v eq '') {
        die "$where: $col is required\n" if $required;
        return 'NULL';
    }
    die "$where: $col has leading or trailing blanks: '$v'\n" if $v =~ /^\s|\s$/;
    return sql_string($v);
}

sub v_float {    # float8 column: plain decimal or exponent notation, > 0
    my ($where, $col, $v, $required) = @_;
    if ($v eq '') {
        die "$where: $col is required\n" if $required;
        return 'NULL';
    }
    die "$where: $col is not a number: '$v'\n"
      unless $v =~ /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
    die "$where: $col must be > 0, got $v\n" unless $v + 0 > 0;
    return $v;
}

sub v_money {    # numeric column: exact decimal, kept as written, > 0
    my ($where, $col, $v, $required) = @_;
    if ($v eq '') {
        die "$where: $col is required\n" if $required;
        return 'NULL';
    }
    die "$where: $col is not a plain decimal: '$v'\n" unless $v =~ /^\d+(?:\.\d+)?$/;
    die "$where: $col must be > 0, got $v\n" if dec_norm($v) eq '0';
    return $v;
}

sub v_int {
    my ($where, $col, $v, $required, $min, $max) = @_;
    if ($v eq '') {
        die "$where: $col is required\n" if $required;
        return 'NULL';
    }
    die "$where: $col is not an integer: '$v'\n" unless $v =~ /^\d{1,9}$/;
    die "$where: $col must be in [$min, $max], got $v\n" if $v < $min || $v > $max;
    return $v + 0;
}

sub v_date {    # YYYY-MM-DD
    my ($where, $col, $v, $required) = @_;
    if ($v eq '') {
        die "$where: $col is required\n" if $required;
        return 'NULL';
    }
    die "$where: $col is not a date YYYY-MM-DD: '$v'\n"
      unless $v =~ /^(\d{4})-(\d{2})-(\d{2})$/ && valid_ymd($1, $2, $3);
    return "'$v'";
}

sub v_timestamptz {    # 'YYYY-MM-DD HH:MM:SS+00' (or ISO 8601 with T and Z)
    my ($where, $col, $v) = @_;
    die "$where: $col is required\n" if $v eq '';
    return "'" . iso_to_pg($where, $col, $v) . "'";
}

sub iso_to_pg {
    my ($where, $col, $v) = @_;
    my ($y, $mo, $d, $h, $mi, $s, $tz) = $v =~
      /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}(?::?\d{2})?)$/
      or die "$where: $col is not a timestamp with time zone "
           . "(YYYY-MM-DD HH:MM:SS+00 or YYYY-MM-DDTHH:MM:SSZ): '$v'\n";
    die "$where: $col is not a valid time: '$v'\n"
      unless valid_ymd($y, $mo, $d) && $h < 24 && $mi < 60 && $s < 60;
    $tz = '+00' if $tz eq 'Z';
    return "$y-$mo-$d $h:$mi:$s$tz";
}

sub valid_ymd {
    my ($y, $m, $d) = @_;
    return 0 if $m < 1 || $m > 12 || $d < 1;
    my @dim = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31);
    my $leap = ($y % 4 == 0 && $y % 100 != 0) || $y % 400 == 0;
    my $max = $dim[$m - 1] + ($m == 2 && $leap ? 1 : 0);
    return $d <= $max;
}

# Exact decimal arithmetic on strings of the form \d+(\.\d+)?
sub dec_norm {
    my ($v) = @_;
    my ($i, $f) = $v =~ /^(\d+)(?:\.(\d+))?$/ or die "internal: not a decimal: $v\n";
    $f = '' unless defined $f;
    $i =~ s/^0+(?=\d)//;
    $f =~ s/0+$//;
    return $f eq '' ? $i : "$i.$f";
}

sub dec_cmp {
    my ($a, $b) = map { dec_norm($_) } @_;
    my ($ai, $af) = split /\./, $a, 2;
    my ($bi, $bf) = split /\./, $b, 2;
    $af = '' unless defined $af;
    $bf = '' unless defined $bf;
    return length($ai) <=> length($bi) if length($ai) != length($bi);
    return $ai cmp $bi if $ai ne $bi;
    my $n = length($af) > length($bf) ? length($af) : length($bf);
    return ($af . '0' x ($n - length $af)) cmp ($bf . '0' x ($n - length $bf));
}


# ---------------------------------------------------------------------------
# Counting: the checked rows of each file.

sub emit {
    my ($file, $rows) = @_;
    $count{$file} += @$rows;
}

sub claim_name {    # sku keys and aliases share one case-insensitive name space
    my ($where, $what, $name, $sku_of) = @_;
    my $k = lc $name;
    die "$where: $what '$name' equals, ignoring case, the name defined at $lc_name{$k}\n"
      if exists $lc_name{$k};
    $lc_name{$k} = $where;
    (my $n = $k) =~ tr/ _-//d;    # llm_econ._name_key: the same name must mean the same SKU
    $norm_sku{$n} //= $sku_of;
    die "$where: $what '$name' is, ignoring case, spaces, - and _, a name of $norm_sku{$n}, not $sku_of\n"
      if $norm_sku{$n} ne $sku_of;
}

# ---------------------------------------------------------------------------

sub gpu_sku {
    my @cols = qw(sku vendor name hbm_gb hbm_bytes hbm_gb_per_s fp32_tflops tf32_tflops
                  bf16_tflops fp16_tflops fp8_tflops nvlink_gb_per_s pcie_gb_per_s gpus_per_node
                  tdp_watts list_price_usd_low list_price_usd_high released source);
    my ($file, @rows) = read_table('gpu_sku.csv', @cols);
    my @out;
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        my $sku = $v->{sku};
        die "$w: sku '$sku' does not match ^[A-Za-z0-9][A-Za-z0-9._-]*\$\n"
          unless $sku =~ /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
        claim_name($w, 'sku', $sku, $sku);
        $sku_key{$sku} = 1;
        my @peaks = grep { $v->{$_} ne '' } qw(fp32_tflops tf32_tflops bf16_tflops fp16_tflops fp8_tflops);
        die "$w: $sku has no peak throughput at all\n" unless @peaks;
        if ($v->{list_price_usd_low} ne '' && $v->{list_price_usd_high} ne '') {
            v_money($w, $_, $v->{$_}) for qw(list_price_usd_low list_price_usd_high);
            die "$w: list_price_usd_low > list_price_usd_high\n"
              if dec_cmp($v->{list_price_usd_low}, $v->{list_price_usd_high}) > 0;
        }
        # empty = not published (TPUs, Trainium): the source must say so
        my $tdp = v_float($w, 'tdp_watts', $v->{tdp_watts}, 0);
        die "$w: tdp_watts must be <= 100000, got $tdp\n" if $tdp ne 'NULL' && $tdp > 100000;
        die "$w: tdp_watts is empty but the source does not say the power is not published\n"
          if $tdp eq 'NULL' && $v->{source} !~ /not published/;
        push @out, [
            v_text($w, 'sku', $sku, 1),
            v_text($w, 'vendor', $v->{vendor}, 1),
            v_text($w, 'name', $v->{name}, 1),
            v_float($w, 'hbm_gb', $v->{hbm_gb}, 1),
            v_float($w, 'hbm_bytes', $v->{hbm_bytes}, 0),
            (map { v_float($w, $_, $v->{$_}, 0) }
               qw(hbm_gb_per_s fp32_tflops tf32_tflops bf16_tflops fp16_tflops
                  fp8_tflops nvlink_gb_per_s)),
            v_float($w, 'pcie_gb_per_s', $v->{pcie_gb_per_s}, 1),
            v_int($w, 'gpus_per_node', $v->{gpus_per_node}, 1, 1, 4096),
            $tdp,
            v_money($w, 'list_price_usd_low', $v->{list_price_usd_low}, 0),
            v_money($w, 'list_price_usd_high', $v->{list_price_usd_high}, 0),
            v_date($w, 'released', $v->{released}, 0),
            v_text($w, 'source', $v->{source}, 1),
            'true',
        ];
    }
    emit('gpu_sku', \@out);
}

sub gpu_sku_alias {
    my @cols = qw(alias sku gpus_per_instance source);
    my ($file, @rows) = read_table('gpu_sku_alias.csv', @cols);
    my @out;
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: alias is required\n" if $v->{alias} eq '';
        claim_name($w, 'alias', $v->{alias}, $v->{sku});
        die "$w: sku '$v->{sku}' is not a key of gpu_sku.csv (aliases must name the key exactly)\n"
          unless $sku_key{ $v->{sku} };
        push @out, [
            v_text($w, 'alias', $v->{alias}, 1),
            v_text($w, 'sku', $v->{sku}, 1),
            v_int($w, 'gpus_per_instance', $v->{gpus_per_instance}, 0, 1, 4096),
            v_text($w, 'source', $v->{source}, 1),
            'true',
        ];
    }
    emit('gpu_sku_alias', \@out);
}

# instance_type.csv: one row per (provider, instance type), unique ignoring case; the SKU a key
# of gpu_sku.csv; gpus > 0 (a fraction for a slice of one GPU); network and NVLink domain
# optional (empty = unknown); a source on every row.
sub instance_type {
    my @cols = qw(provider instance_type sku gpus network_gbit_per_s nvlink_domain source);
    my ($file, @rows) = read_table('instance_type.csv', @cols);
    my (@out, %seen);
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: provider must be a lower-case provider name\n" unless $v->{provider} =~ /^[a-z0-9][a-z0-9._-]*$/;
        die "$w: instance_type is required\n" if $v->{instance_type} eq '';
        my $k = lc "$v->{provider}/$v->{instance_type}";
        die "$w: $v->{provider} $v->{instance_type} is listed twice (also $seen{$k})\n" if $seen{$k};
        $seen{$k} = $w;
        die "$w: sku '$v->{sku}' is not a key of gpu_sku.csv\n" unless $sku_key{ $v->{sku} };
        die "$w: gpus must be a decimal in (0, 4096], got '$v->{gpus}'\n"
          unless $v->{gpus} =~ /^[0-9]+(\.[0-9]+)?$/ && $v->{gpus} > 0 && $v->{gpus} <= 4096;
        die "$w: a GPU count above 1 must be whole, got '$v->{gpus}'\n" if $v->{gpus} > 1 && $v->{gpus} != int($v->{gpus});
        push @out, [
            v_text($w, 'provider', $v->{provider}, 1),
            v_text($w, 'instance_type', $v->{instance_type}, 1),
            v_text($w, 'sku', $v->{sku}, 1),
            $v->{gpus},
            v_int($w, 'network_gbit_per_s', $v->{network_gbit_per_s}, 0, 1, 100000),
            v_int($w, 'nvlink_domain', $v->{nvlink_domain}, 0, 1, 4096),
            v_text($w, 'source', $v->{source}, 1),
            'true',
        ];
    }
    emit('instance_type', \@out);
}

# gcp_machine_family.csv: a GCP machine family (name prefix without the size, e.g. a2-highgpu;
# n1 = GPUs attachable to N1 machines) and the AcceleratorName SkyPilot's GCP catalogs give its
# GPUs, unique per (family, accelerator), with a source.
sub gcp_machine_family {
    my @cols = qw(machine_family accelerator alt_accelerator source);
    my ($file, @rows) = read_table('gcp_machine_family.csv', @cols);
    my (@out, %seen);
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: machine_family must be a lower-case family name like a2-highgpu\n" unless $v->{machine_family} =~ /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
        die "$w: accelerator is required\n" if $v->{accelerator} eq '';
        my $k = "$v->{machine_family}/$v->{accelerator}";
        die "$w: $k is listed twice\n" if $seen{$k}++;
        push @out, [
            v_text($w, 'machine_family', $v->{machine_family}, 1),
            v_text($w, 'accelerator', $v->{accelerator}, 1),
            v_text($w, 'alt_accelerator', $v->{alt_accelerator}, 0),
            v_text($w, 'source', $v->{source}, 1),
            'true',
        ];
    }
    emit('gcp_machine_family', \@out);
}

sub mfu_reference {
    my @cols = qw(config hardware mfu year source);
    my ($file, @rows) = read_table('mfu_reference.csv', @cols);
    my (@out, %seen);
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: config '$v->{config}' already defined at $seen{$v->{config}}\n"
          if exists $seen{ $v->{config} };
        $seen{ $v->{config} } = $w;
        my $mfu = v_float($w, 'mfu', $v->{mfu}, 1);
        die "$w: mfu must be in (0, 1], got $mfu\n" if $mfu > 1;
        push @out, [
            v_text($w, 'config', $v->{config}, 1),
            v_text($w, 'hardware', $v->{hardware}, 1),
            $mfu,
            v_int($w, 'year', $v->{year}, 1, 2000, 2100),
            v_text($w, 'source', $v->{source}, 1),
            'true',
        ];
    }
    emit('mfu_reference', \@out);
}

# price_snapshot rows are returned as [sort key..., values...] and emitted together.
my %price_key;    # uniqueness of (sku, provider, pricing, region, instance_type, observed_at)

sub price_row {
    my ($w, %p) = @_;
    my $key = join "\x1F", map { defined $p{$_} ? $p{$_} : "\x00NULL" }
      qw(sku provider pricing region instance_type observed_at);
    die "$w: duplicate price observation (sku, provider, pricing, region, instance_type, "
      . "observed_at) = ($p{sku}, $p{provider}, $p{pricing}, "
      . ($p{region} // 'NULL') . ', ' . ($p{instance_type} // 'NULL') . ", $p{observed_at}), "
      . "first at $price_key{$key}\n"
      if exists $price_key{$key};
    $price_key{$key} = $w;
    return [
        "'$p{observed_at}'",
        sql_string($p{provider}),
        sql_string($p{sku}),
        defined $p{region} ? sql_string($p{region}) : 'NULL',
        sql_string($p{pricing}),
        defined $p{usd} ? $p{usd} : 'NULL',
        defined $p{instance_type} ? sql_string($p{instance_type}) : 'NULL',
        defined $p{gpus} ? $p{gpus} : 'NULL',
        sql_string($p{source}),
        'true',
        "'seed'",
    ];
}

sub price_seed {
    my @cols = qw(observed_at provider sku region pricing usd_per_gpu_hour instance_type
                  gpus_per_instance source);
    my ($file, @rows) = read_table('price_seed.csv', @cols);
    my @out;
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: provider '$v->{provider}' must match ^[a-z0-9][a-z0-9._-]*\$\n"
          unless $v->{provider} =~ /^[a-z0-9][a-z0-9._-]*$/;
        die "$w: sku '$v->{sku}' is not a key of gpu_sku.csv\n" unless $sku_key{ $v->{sku} };
        die "$w: pricing must be on_demand, spot or reserved, got '$v->{pricing}'\n"
          unless $v->{pricing} =~ /^(?:on_demand|spot|reserved)$/;
        v_text($w, $_, $v->{$_}, 0) for qw(region instance_type);
        v_text($w, 'source', $v->{source}, 1);
        my $usd  = v_money($w, 'usd_per_gpu_hour', $v->{usd_per_gpu_hour}, 0);
        my $gpus = v_int($w, 'gpus_per_instance', $v->{gpus_per_instance}, 0, 1, 4096);
        push @out, price_row($w,
            observed_at   => iso_to_pg($w, 'observed_at', $v->{observed_at}),
            provider      => $v->{provider},
            sku           => $v->{sku},
            region        => $v->{region} eq '' ? undef : $v->{region},
            pricing       => $v->{pricing},
            usd           => $usd eq 'NULL' ? undef : $usd,
            instance_type => $v->{instance_type} eq '' ? undef : $v->{instance_type},
            gpus          => $gpus eq 'NULL' ? undef : $gpus,
            source        => $v->{source},
        );
    }
    return @out;
}

# The GCP history is loaded raw into llm_econ.price_history_staging and turned into change
# points by the loader users run on their own histories (src/sql/data.sql), which also skips
# the lines whose accelerator contradicts the machine type.  Here: the exact header COPY
# expects, timestamps it can read, and counts and prices that are numbers.
sub gcp_staging {
    my @cols = qw(observed_at valid_to cloud region instance_type accelerator accelerator_count
                  price_on_demand_usd_per_hour spot_price_usd_per_hour
                  price_on_demand_per_gpu_usd_per_hour spot_price_per_gpu_usd_per_hour);
    my ($file, @rows) = read_table('gcp_gpu_price_history.csv', @cols);
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        iso_to_pg($w, $_, $v->{$_}) for qw(observed_at valid_to);
        v_text($w, $_, $v->{$_}, 1) for qw(cloud region instance_type accelerator);
        v_int($w, 'accelerator_count', $v->{accelerator_count}, 1, 1, 4096);
        for my $c (grep { /usd/ } @cols) {
            die "$w: $c is not a plain decimal: '$v->{$c}'\n"
              unless $v->{$c} eq '' || $v->{$c} =~ /^\d+(?:\.\d+)?$/;
        }
    }
    emit('gcp_gpu_price_history', \@rows);
    # src/sql/data.sql sets the staging sequence where staging these lines would leave it
    my $sql = "$dir/../src/sql/data.sql";
    if (-e $sql) {
        open my $fh, '<', $sql or die "$sql: cannot open: $!\n";
        my ($n) = join('', <$fh>) =~ /setval\('llm_econ\.price_history_staging_id_seq', (\d+)\)/
          or die "$sql: the setval of price_history_staging_id_seq is missing\n";
        die "$sql: price_history_staging_id_seq is set to $n, but $file has " . scalar(@rows) . " lines\n"
          unless $n == @rows;
    }
    gcp_points(scalar @prices, gcp_corrections());
}

# The history's change points as the loader makes them, each with when the history last vouched
# for its price (0.4.0's price_snapshot.last_seen_at: the valid_to of the last line listing it);
# src/gen_history_points.sh writes the file, the regression test shipped_history compares it with
# the loader: ids increasing from the first after the seed rows (the loader's ids: a gap is a row
# the corrections file removes, and no row left is one it names), the loader's kinds of value,
# SKUs that gpu_sku.csv defines, a last_seen_at no earlier than observed_at on every row with a
# price and none on a withdrawal.  No value is quoted: test/upgrade/install.sh cuts the first nine
# columns for the released 0.3.0 script.
sub gcp_points {
    my ($seed_rows, @corrections) = @_;
    my @cols = qw(id observed_at provider sku region pricing usd_per_gpu_hour instance_type gpus_per_instance
                  last_seen_at);
    my $name = 'gcp_gpu_price_history_change_points.csv';
    open my $fh, '<', "$dir/$name" or die "$dir/$name: cannot open: $!\n";
    while (my $l = <$fh>) { die "$dir/$name:$.: a quoted value\n" if $l =~ /"/ }
    close $fh;
    my ($file, @rows) = read_table($name, @cols);
    my $next = $seed_rows + 1;
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: id must be $next or more (ids follow the seed rows, one per change point in load order), got '$v->{id}'\n"
          unless $v->{id} =~ /^[1-9]\d*$/ && $v->{id} >= $next;
        $next = $v->{id} + 1;
        my $at = iso_to_pg($w, 'observed_at', $v->{observed_at});
        die "$w: provider must be gcp\n" unless $v->{provider} eq 'gcp';
        die "$w: sku '$v->{sku}' is not a key of gpu_sku.csv\n" unless $sku_key{$v->{sku}};
        v_text($w, $_, $v->{$_}, 1) for qw(region instance_type);
        die "$w: pricing must be on_demand or spot\n" unless $v->{pricing} =~ /^(on_demand|spot)$/;
        v_money($w, 'usd_per_gpu_hour', $v->{usd_per_gpu_hour}, 0);    # empty = withdrawn
        v_int($w, 'gpus_per_instance', $v->{gpus_per_instance}, 1, 1, 4096);
        for my $c (@corrections) {
            die "$w: the corrections file removes this row (its line $c->{line})\n"
              if $v->{usd_per_gpu_hour} ne '' && ($c->{region} eq '*' || $c->{region} eq $v->{region})
                 && index($v->{instance_type}, $c->{prefix}) == 0 && $at ge $c->{from} && $at lt $c->{to}
                 && $v->{usd_per_gpu_hour} < $c->{below};
        }
        if ($v->{usd_per_gpu_hour} eq '') {
            die "$w: a withdrawal has no last_seen_at\n" if $v->{last_seen_at} ne '';
        } else {
            die "$w: a price needs its last_seen_at\n" if $v->{last_seen_at} eq '';
            die "$w: last_seen_at is before the change point's observed_at\n"
              if iso_to_pg($w, 'last_seen_at', $v->{last_seen_at}) lt $at;
        }
    }
    emit('gcp_gpu_price_history_change_points', \@rows);
}

# Rows of the shipped history known to be wrong (host-only machine prices: region or '*',
# machine-type prefix, period and the price below which a row is host-only); the change points
# file is written without them (src/gen_history_points.sh), the update from 0.2.0 deletes them.
# Returns the rules, times as iso_to_pg gives them.
sub gcp_corrections {
    my @cols = qw(region instance_type_prefix observed_from observed_to below_usd_per_gpu_hour reason source);
    my ($file, @rows) = read_table('gcp_gpu_price_history_corrections.csv', @cols);
    my @out;
    for my $r (@rows) {
        my ($ln, $v) = @$r;
        my $w = "$file:$ln";
        die "$w: instance_type_prefix must match ^[a-z0-9-]+\$\n" unless $v->{instance_type_prefix} =~ /^[a-z0-9-]+$/;
        die "$w: region must be * or a region name\n" unless $v->{region} =~ /^(\*|[a-z0-9-]+)$/;
        v_text($w, $_, $v->{$_}, 1) for qw(reason source);
        my $from = iso_to_pg($w, 'observed_from', $v->{observed_from});
        my $to = iso_to_pg($w, 'observed_to', $v->{observed_to});
        die "$w: observed_from must be before observed_to\n" unless $from lt $to;
        v_money($w, 'below_usd_per_gpu_hour', $v->{below_usd_per_gpu_hour}, 1);
        push @out, { line => $ln, region => $v->{region}, prefix => $v->{instance_type_prefix}, from => $from,
                     to => $to, below => $v->{below_usd_per_gpu_hour} };
    }
    emit('gcp_gpu_price_history_corrections', \@rows);
    return @out;
}

# The daily summary of the shipped prices (src/gen_history_points.sh writes both files; the
# regression test shipped_history rebuilds the summary and compares): midnight UTC days,
# known SKUs and pricings, positive counts and prices, min <= median <= max, and every day of
# a group no later than the group's last day.
sub daily_summary {
    my ($gfile, @groups) = read_table('price_daily_group.csv', qw(sku provider pricing last_day));
    my %last;
    for my $r (@groups) {
        my ($ln, $v) = @$r;
        my $w = "$gfile:$ln";
        die "$w: sku '$v->{sku}' is not a key of gpu_sku.csv\n" unless $sku_key{$v->{sku}};
        die "$w: provider must match ^[a-z0-9][a-z0-9._-]*\$\n" unless $v->{provider} =~ /^[a-z0-9][a-z0-9._-]*$/;
        die "$w: pricing must be on_demand, spot or reserved\n" unless $v->{pricing} =~ /^(on_demand|spot|reserved)$/;
        my $day = iso_to_pg($w, 'last_day', $v->{last_day});
        die "$w: last_day must be a midnight UTC\n" unless $day =~ / 00:00:00\+00$/;
        my $k = "$v->{sku}|$v->{provider}|$v->{pricing}";
        die "$w: group $k listed twice\n" if exists $last{$k};
        $last{$k} = $day;
    }
    emit('price_daily_group', \@groups);
    my ($sfile, @days) = read_table('price_daily_summary.csv',
        qw(time sku provider pricing offers min_usd median_usd max_usd sum_usd));
    for my $r (@days) {
        my ($ln, $v) = @$r;
        my $w = "$sfile:$ln";
        my $k = "$v->{sku}|$v->{provider}|$v->{pricing}";
        die "$w: group $k is not in $gfile\n" unless exists $last{$k};
        my $day = iso_to_pg($w, 'time', $v->{time});
        die "$w: time must be a midnight UTC\n" unless $day =~ / 00:00:00\+00$/;
        die "$w: time is after the group's last day $last{$k}\n" if $day gt $last{$k};
        v_int($w, 'offers', $v->{offers}, 1, 1, 100000000);
        v_money($w, $_, $v->{$_}, 1) for qw(min_usd median_usd max_usd sum_usd);
        die "$w: min_usd <= median_usd <= max_usd does not hold\n"
          unless $v->{min_usd} <= $v->{median_usd} && $v->{median_usd} <= $v->{max_usd};
    }
    emit('price_daily_summary', \@days);
}
