-- Spec validation as an SQL function (0.2.0), for triggers and users checking stored or hand-built specs.

CREATE OR REPLACE FUNCTION llm_econ._check_spec(spec llm_econ.run_spec) RETURNS boolean
AS 'MODULE_PATHNAME', 'le_check_spec_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_spec(llm_econ.run_spec) IS
  'true when every field of the spec is in range and the cross-field rules hold (what the constructor checks); else 22023 naming the field';
