-- llm_econ 0.3.0 -> 0.4.0 update script, part 00: the guard against \i.  The parts that follow
-- (NN_topic.sql, in name order) each carry one concern's changes; `make` joins them into
-- llm_econ--0.3.0--0.4.0.sql.  At the release of 0.4.0 that file is committed to src/update/
-- as it is and this directory goes: released scripts are never rebuilt.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.4.0'" to load this file. \quit
