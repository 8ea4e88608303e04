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
-- Llama 2 7B's shape (32 x 4096, 32 heads, SwiGLU 11008, vocabulary 32000) holds 6.48e9 non-embedding
-- parameters: 12·L·h² for attention and a GELU 4h FFN (Narayanan et al. 2021 §5.1), here 4·h² + 3·h·f
-- per layer; its 6.74e9 adds the 2·V·h of the embeddings.  n_params is the non-embedding count (issue
-- 46: before 0.5.0 the band held the embeddings, [3.37e9, 10.1e9]); the band is [3.24e9, 9.71e9].
SELECT n, pg_temp.err(format($$SELECT run_spec(%s, 2e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                                               ffn_hidden => 11008, ffn_act => 'swiglu', vocab_size => 32000)$$, n)) AS result
  FROM unnest(ARRAY[3.2e9, 3.3e9, 6.48e9, 9.7e9, 9.8e9]) AS n ORDER BY n;
-- Its MFU is in (0, 1].
SELECT m > 0 AND m <= 1 AS mfu_in_0_1
  FROM predicted_mfu(run_spec(6.48e9, 2e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                              global_batch => 64, ffn_hidden => 11008, ffn_act => 'swiglu', vocab_size => 32000)) AS m;
-- A 1-layer, d_model 4096 shape with a 256,000 vocabulary holds 0.2e9 non-embedding parameters and 2.1e9
-- of embeddings.  Before 0.4.0 a count of 2.3e9 (embeddings included) was in the band and credited 6·N
-- FLOPs the step does not execute (MFU 1.07; 1.57 at 3.4e9); 0.4.0 ran the rest as layer work (step.c).
-- Since 0.5.0 the band is the non-embedding [1.0e8, 3.0e8], and 2.3e9 is refused; MFU stays in (0, 1]
-- across the band.
SELECT pg_temp.err($$SELECT run_spec(2.3e9, 1e12, 2, 'H100', n_layers => 1, d_model => 4096, n_heads => 32,
                                     vocab_size => 256000)$$);
SELECT n, round(m::numeric, 3) AS mfu, m > 0 AND m <= 1 AS mfu_in_0_1
  FROM unnest(ARRAY[1.01e8, 2.01e8, 3.0e8]) AS n,
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
-- At the bound both accept: one layer of d_model 64 (49,152 non-embedding parameters) with a 1e8
-- vocabulary (2·V·h = 1.28e10 of embeddings).
SELECT m > 0 AND m <= 1 AS mfu_in_0_1
  FROM predicted_mfu(run_spec(49152, 1e12, 8, 'H100', n_layers => 1, d_model => 64, n_heads => 1, seq_len => 2048,
                              global_batch => 8, vocab_size => 100000000)) AS m;
