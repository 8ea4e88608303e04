#!/usr/bin/python3
# dashboards.py: the four dashboard panels read as a BI tool would (SQLAlchemy over psycopg2, the time range as bound parameters) and drawn to docs/panel_*.png with matplotlib.
#
# usage: python3 test/chart/dashboards.py POSTGRES_URL [OUTDIR]
#   e.g. python3 test/chart/dashboards.py postgresql+psycopg2://postgres@/postgres?host=/tmp\&port=5432 docs
# Needs Debian's python3-sqlalchemy, python3-psycopg2 and python3-matplotlib, and a database
# with llm_econ installed (the shipped history is enough).  Each query is checked: it must return
# rows, and its statements must carry the range as parameters, not as literals pasted into SQL.
import datetime as dt
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sqlalchemy import create_engine, event, text  # noqa: E402

url = sys.argv[1]
outdir = sys.argv[2] if len(sys.argv) > 2 else "docs"
os.makedirs(outdir, exist_ok=True)
engine = create_engine(url)

# What the driver sends: SQLAlchemy hands psycopg2 the statement with %(name)s placeholders and
# the values apart (psycopg2 quotes them client-side, as Superset's connections do).
sent = []
@event.listens_for(engine, "before_cursor_execute")
def _log(conn, cursor, statement, parameters, context, executemany):
    sent.append((statement, parameters))

# The range a dashboard would pass: the last four years of the shipped history.
range_to = dt.datetime(2026, 7, 23, tzinfo=dt.timezone.utc)
range_from = range_to - dt.timedelta(days=4 * 365)
params = {"t0": range_from, "t1": range_to, "sku": "H100-SXM5"}

PANELS = {
    "panel_daily_by_provider": text(
        'SELECT "time", provider, pricing, min_usd_per_gpu_hour, median_usd_per_gpu_hour, offers '
        "FROM llm_econ.price_daily_by_provider "
        'WHERE sku = :sku AND "time" >= :t0 AND "time" < :t1 ORDER BY provider, pricing, "time"'),
    "panel_spot_discount": text(
        'SELECT "time", provider, discount FROM llm_econ.spot_discount_daily '
        'WHERE sku = :sku AND "time" >= :t0 AND "time" < :t1 ORDER BY provider, "time"'),
    "panel_cheapest_monthly": text(
        'SELECT "time", provider, usd_per_gpu_hour, rank FROM llm_econ.cheapest_provider_monthly '
        "WHERE sku = :sku AND pricing = 'on_demand' AND \"time\" >= :t0 AND \"time\" < :t1 "
        'ORDER BY "time", rank'),
    "panel_offers": text(
        'SELECT "time", provider, sum(offers) AS offers FROM llm_econ.price_daily_by_provider '
        'WHERE sku = :sku AND "time" >= :t0 AND "time" < :t1 GROUP BY 1, 2 ORDER BY 2, 1'),
}

rows = {}
with engine.connect() as conn:
    conn.execute(text("SET TimeZone = 'UTC'"))
    for name, q in PANELS.items():
        rows[name] = conn.execute(q, params).fetchall()
        stmt, bound = sent[-1]
        assert "%(t0)s" in stmt and "%(t1)s" in stmt, f"{name}: range not bound: {stmt}"
        assert bound["t0"] == range_from and bound["t1"] == range_to, f"{name}: wrong parameters {bound}"
        assert rows[name], f"{name}: no rows"
        print(f"{name}: {len(rows[name])} rows")


def by(rows, *key_idx):
    out = {}
    for r in rows:
        out.setdefault(tuple(r[i] for i in key_idx), []).append(r)
    return out


def save(fig, name):
    path = os.path.join(outdir, name + ".png")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print("wrote", path)


sku = params["sku"]
# 1. price over time per provider and pricing (cheapest series, with the median dashed)
fig, ax = plt.subplots(figsize=(9, 4.5))
for (prov, pricing), rs in sorted(by(rows["panel_daily_by_provider"], 1, 2).items()):
    line, = ax.step([r[0] for r in rs], [float(r[3]) for r in rs], where="post",
                    label=f"{prov} {pricing.replace('_', '-')}")
    ax.step([r[0] for r in rs], [float(r[4]) for r in rs], where="post", linestyle=":", color=line.get_color())
ax.set_title(f"{sku}: cheapest (solid) and median (dotted) $/GPU-hour per provider, daily")
ax.set_ylabel("USD per GPU-hour")
ax.legend(fontsize=7, ncol=2)
save(fig, "panel_daily_by_provider")

# 2. spot discount against the same provider's on-demand price
fig, ax = plt.subplots(figsize=(9, 3.5))
for (prov,), rs in sorted(by(rows["panel_spot_discount"], 1).items()):
    ax.step([r[0] for r in rs], [100 * float(r[2]) for r in rs], where="post", label=prov)
ax.set_title(f"{sku}: spot discount vs the same provider's on-demand price")
ax.set_ylabel("% below on-demand")
ax.legend(fontsize=8)
save(fig, "panel_spot_discount")

# 3. cheapest provider per month (time-weighted), the rank-1 provider marked
fig, ax = plt.subplots(figsize=(9, 3.5))
for (prov,), rs in sorted(by(rows["panel_cheapest_monthly"], 1).items()):
    ax.plot([r[0] for r in rs], [float(r[2]) for r in rs], marker=".", label=prov)
best = [r for r in rows["panel_cheapest_monthly"] if r[3] == 1]
ax.scatter([r[0] for r in best], [float(r[2]) for r in best], s=60, facecolors="none", edgecolors="black",
           label="cheapest that month")
ax.set_title(f"{sku} on-demand: time-weighted $/GPU-hour per provider and month")
ax.set_ylabel("USD per GPU-hour")
ax.legend(fontsize=8)
save(fig, "panel_cheapest_monthly")

# 4. offers (series in effect) per provider
fig, ax = plt.subplots(figsize=(9, 3.5))
for (prov,), rs in sorted(by(rows["panel_offers"], 1).items()):
    ax.step([r[0] for r in rs], [int(r[2]) for r in rs], where="post", label=prov)
ax.set_title(f"{sku}: offers in effect per provider (regions x machine types x pricings)")
ax.set_ylabel("offers")
ax.legend(fontsize=8)
save(fig, "panel_offers")
