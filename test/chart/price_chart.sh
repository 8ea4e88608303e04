#!/usr/bin/env bash
# price_chart.sh: draws docs/price_history.png ($/GPU-hour over time on GCP us-central1, A100 and H100, on-demand and spot)
# from the shipped data, in a throwaway cluster. Run as root after "./run.sh demo" (needs gnuplot-nox).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v gnuplot >/dev/null || { apt-get install -y -qq gnuplot-nox >/dev/null; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# GCP us-central1: the price in effect at noon UTC each day (cheapest machine type), from the
# shipped GCP history, for each SKU and pricing (price_at).
pg_virtualenv psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET TimeZone = 'UTC';
CREATE EXTENSION llm_econ;
CREATE TEMP TABLE daily AS
SELECT to_char(d, 'YYYY-MM-DD') AS day, s.sku || ' ' || replace(p.pricing, '_', '-') AS series,
       llm_econ.price_at(s.sku, 'gcp', p.pricing, d + interval '12 hours', 'us-central1') AS usd
  FROM generate_series(timestamptz '2022-02-10', '2026-08-19', interval '1 day') AS d,
       (VALUES ('A100-40GB'), ('A100-80GB'), ('H100-SXM5')) AS s(sku),
       (VALUES ('on_demand'), ('spot')) AS p(pricing);
\copy (SELECT day, series, usd FROM daily WHERE usd IS NOT NULL ORDER BY series, day) TO '$tmp/daily.tsv'
SQL

# one data block per series, separated by two blank lines (gnuplot "index")
awk -F'\t' 'BEGIN { OFS = "\t" } $2 != prev { if (NR > 1) printf "\n\n"; print "# " $2; prev = $2 } { print $1, $3 }' \
    "$tmp/daily.tsv" > "$tmp/series.dat"
titles=$(cut -f2 "$tmp/daily.tsv" | uniq | sed 's/.*/"&"/' | paste -sd' ')

gnuplot <<GP
set terminal pngcairo size 1200,650 font "DejaVu Sans,11"
set output "docs/price_history.png"
set title "GCP us-central1, \$ per GPU-hour in effect each day (cheapest machine type; shipped GCP price history)"
set xdata time
set timefmt "%Y-%m-%d"
set format x "%Y-%m"
set ylabel "USD per GPU-hour"
set grid
set key outside right top
titles = '$titles'
plot for [i=0:words(titles)-1] "$tmp/series.dat" index i using 1:2 with steps lw 2 title word(titles, i+1)
GP
echo "wrote docs/price_history.png"
