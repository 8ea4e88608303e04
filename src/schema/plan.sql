-- plan.sql (stateful): the shipped GPU generations and the observed_run table.
-- The GPU generation of the shipped parts (the step-time model's efficiency curve, src/core/step.c).
-- Architecture families as the vendors name them: NVIDIA Ampere (GA100: A100, A800; GA102: A10,
-- A10G, A40), Hopper (GH100: H100, H200, H800, H20, GH200), Blackwell data-centre parts (B100,
-- B200, B300, GB200, GB300); AMD CDNA 2 (MI250X) and CDNA 3 (MI300X, MI325X); everything else
-- (Volta, Turing, Ada, consumer Blackwell, CDNA 4, Gaudi, TPU, workstation cards) keeps 'other',
-- the model's conservative figures.  User rows keep what they were given (default 'other').
UPDATE llm_econ.gpu_sku g SET generation = v.generation
  FROM (VALUES ('A100-40GB', 'ampere'), ('A100-80GB', 'ampere'), ('A100-80GB-PCIe', 'ampere'),
               ('A800', 'ampere'), ('A10', 'ampere'), ('A10G', 'ampere'), ('A40', 'ampere'),
               ('H100-SXM5', 'hopper'), ('H100-PCIe', 'hopper'), ('H100-NVL', 'hopper'),
               ('H200-SXM5', 'hopper'), ('H200-NVL', 'hopper'), ('H800', 'hopper'), ('H20', 'hopper'),
               ('GH200', 'hopper'),
               ('B100', 'blackwell'), ('B200', 'blackwell'), ('B300', 'blackwell'),
               ('GB200', 'blackwell'), ('GB300', 'blackwell'),
               ('MI250X', 'cdna2'), ('MI300X', 'cdna3'), ('MI325X', 'cdna3')) AS v(sku, generation)
 WHERE g.sku OPERATOR(pg_catalog.=) v.sku AND g.builtin;

-- Calibration from the runs a team has done (API 0.4.0): measured throughput of real runs, per
-- tenant under row-level security like run_plan and spend.
CREATE TABLE llm_econ.observed_run (
    tenant             text NOT NULL DEFAULT CURRENT_USER,
    run_id             text NOT NULL CHECK (run_id OPERATOR(pg_catalog.<>) ''),
    spec               llm_econ.run_spec NOT NULL,
    provider           text CHECK (provider OPERATOR(pg_catalog.~) '^[a-z0-9][a-z0-9._-]*$'),
    tokens_per_second  float8 CHECK (tokens_per_second > 0::float8 AND tokens_per_second < 'Infinity'::float8),
    step_seconds       float8 CHECK (step_seconds > 0::float8 AND step_seconds < 'Infinity'::float8),
    observed_at        timestamptz NOT NULL DEFAULT pg_catalog.now() CHECK (pg_catalog.isfinite(observed_at)),
    source             text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    CONSTRAINT observed_run_one_measure CHECK (pg_catalog.num_nonnulls(tokens_per_second, step_seconds) OPERATOR(pg_catalog.=) 1),
    CONSTRAINT observed_run_pkey PRIMARY KEY (tenant, run_id, observed_at)
);

ALTER TABLE llm_econ.observed_run ENABLE ROW LEVEL SECURITY;
SELECT pg_catalog.pg_extension_config_dump('llm_econ.observed_run', '');
