-- Consistency of a spec's parameter counts with its shape (issue 34; API.md "Plans use the network the
-- instance has"): n_params, and n_active_params when given, within 0.5x to 1.5x what the shape holds,
-- so predicted MFU is at most 1; and one vocab_size bound for run_spec and the step model.
SET search_path = llm_econ, public;
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- ---- MFU at most 1 -----------------------------------------------------------------------------------
-- Issue 34's spec: 7e9 parameters on a 2-layer d_model 512 shape (6.3M parameters) gave MFU 30.3.
SELECT pg_temp.err($$SELECT predicted_mfu(run_spec(7e9, 1e12, 8, 'H100', n_layers => 2, d_model => 512, n_heads => 8,
                                                   seq_len => 8192, global_batch => 64, zero_stage => 1))$$);
-- ... and 1e12 parameters on 2 layers of d_model 64 gave 40.4.
SELECT pg_temp.err($$SELECT predicted_mfu(run_spec(1e12, 1e12, 8, 'H100', n_layers => 2, d_model => 64, n_heads => 8,
                                                   seq_len => 8192, global_batch => 64, zero_stage => 1))$$);
-- Every function refuses it, since the constructor does.
SELECT pg_temp.err($$SELECT memory_per_gpu(run_spec(7e9, 1e12, 8, 'H100', n_layers => 2, d_model => 512, n_heads => 8))$$);
-- Llama 2 7B's shape (32 x 4096, 32 heads, SwiGLU 11008, vocabulary 32000) holds 6.74e9 parameters:
-- 12·L·h² for attention and a GELU 4h FFN (Narayanan et al. 2021 §5.1), here 4·h² + 3·h·f per layer,
-- plus 2·V·h.  The band is [3.37e9, 10.1e9].
SELECT n, pg_temp.err(format($$SELECT run_spec(%s, 2e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                                               ffn_hidden => 11008, ffn_act => 'swiglu', vocab_size => 32000)$$, n)) AS result
  FROM unnest(ARRAY[3.3e9, 3.4e9, 6.74e9, 10.1e9, 10.2e9]) AS n ORDER BY n;
-- As published, its MFU is in (0, 1].
SELECT m > 0 AND m <= 1 AS mfu_in_0_1
  FROM predicted_mfu(run_spec(6.74e9, 2e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                              global_batch => 64, ffn_hidden => 11008, ffn_act => 'swiglu', vocab_size => 32000)) AS m;
-- Inside the band but above what the shape computes: a 1-layer, d_model 4096 shape with a 256,000
-- vocabulary holds 2.3e9 parameters, 2.1e9 of them the input embedding and the output layer, but its
-- step runs only the layer's 0.2e9 and the output layer's 1.05e9.  6·N credited FLOPs the step does not
-- execute: MFU 1.07 (2.3e9) and 1.57 (3.4e9, the band's top) before 0.4.0's fix, which runs the rest
-- as layer work (step.c).  The same shape with an honest count keeps its MFU.
SELECT n, round(m::numeric, 3) AS mfu, m > 0 AND m <= 1 AS mfu_in_0_1
  FROM unnest(ARRAY[1.3e9, 2.3e9, 3.4e9]) AS n,
       LATERAL predicted_mfu(run_spec(n, 1e12, 2, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192,
                                      global_batch => 26, micro_batch => 13, tp => 2, vocab_size => 256000)) AS m
 ORDER BY n;
-- Without the shape (no d_model) nothing is compared.
SELECT pg_temp.err($$SELECT run_spec(7e9, 1e12, 8, 'H100', n_layers => 2)$$);
-- A mixture of experts: Mixtral 8x7B's shape (32 x 4096, kv 8, 8 experts of SwiGLU 14336, top 2, vocabulary
-- 32000) holds 46.7e9, 12.9e9 active; n_active_params is held to the active count.
SELECT a, pg_temp.err(format($$SELECT run_spec(46.7e9, 1e12, 8, 'H100', n_active_params => %s, n_experts => 8, top_k => 2,
                                               n_layers => 32, d_model => 4096, n_heads => 32, n_kv_heads => 8,
                                               ffn_hidden => 14336, ffn_act => 'swiglu', vocab_size => 32000)$$, a)) AS result
  FROM unnest(ARRAY[5e9, 12.9e9, 20e9]) AS a ORDER BY a;

-- ---- one vocab_size bound ------------------------------------------------------------------------------
-- run_spec accepted vocab_size up to 1e9, which predicted_mfu then refused above 1e8; both say 1e8 now.
SELECT pg_temp.err($$SELECT run_spec(7e9, 1e12, 8, 'H100', vocab_size => 100000001)$$);
-- At the bound both accept: one layer of d_model 64 with a 1e8 vocabulary is 2·V·h = 1.28e10 parameters.
SELECT m > 0 AND m <= 1 AS mfu_in_0_1
  FROM predicted_mfu(run_spec(1.28e10, 1e12, 8, 'H100', n_layers => 1, d_model => 64, n_heads => 1, seq_len => 2048,
                              global_batch => 8, vocab_size => 100000000)) AS m;
