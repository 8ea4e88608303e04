-- Price lookups over price_snapshot (STABLE: they read a table).

CREATE FUNCTION llm_econ.price_at(sku text, provider text, pricing text DEFAULT 'on_demand',
                                  at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_price_at_fn' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.price_at(text, text, text, timestamptz, text) IS
  '$/GPU-hour in effect at "at" (latest observation at or before it; withdrawn series excluded); region NULL = cheapest region; NULL when nothing is known';

CREATE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec, provider text, pricing text DEFAULT 'on_demand',
                                       at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_estimate_cost_at_fn' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, text, text, timestamptz, text) IS
  'compute cost in USD at the provider''s price in effect at "at" (see price_at); an error when no price is known';
