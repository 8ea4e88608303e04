-- 0.4.0 -> 0.5.0 migration of stateful objects (tables, types, shipped rows): hand-written, run before all replaceable code.

-- issue 45: _skypilot_offers returns GpuInfo's memory per GPU (gpu_mib): its row type changes
DROP FUNCTION IF EXISTS llm_econ._skypilot_offers(text, text);
