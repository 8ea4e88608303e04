-- import.sql (stateful): the price history staging table.
-- Bulk price histories: \copy a long-format CSV (the shipped GCP history's columns) into this
-- staging table, then SELECT * FROM llm_econ.load_price_history().  All columns are text so
-- that \copy never fails half-way; load_price_history validates and names the bad line.
CREATE TABLE llm_econ.price_history_staging (
    id                                   bigserial PRIMARY KEY,
    observed_at                          text,
    valid_to                             text,
    cloud                                text,
    region                               text,
    instance_type                        text,
    accelerator                          text,
    accelerator_count                    text,
    price_on_demand_usd_per_hour         text,
    spot_price_usd_per_hour              text,
    price_on_demand_per_gpu_usd_per_hour text,
    spot_price_per_gpu_usd_per_hour      text,
    staged_by                            text NOT NULL DEFAULT CURRENT_USER
                                         CHECK (staged_by OPERATOR(pg_catalog.=) CURRENT_USER)
);
-- Each role sees, loads and deletes only the rows it staged (as focus_staging).  COPY cannot
-- write a table under row-level security, so roles \copy into the view price_history_stage,
-- whose trigger inserts each row here as theirs; the owner may still \copy here directly.
ALTER TABLE llm_econ.price_history_staging ENABLE ROW LEVEL SECURITY;
