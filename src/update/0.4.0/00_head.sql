-- llm_econ 0.3.0 -> 0.4.0 update script, part 00: the guard against \i.  The parts that follow
-- (NN_topic.sql, in name order) each carry one concern's changes; `make` joins them into
-- llm_econ--0.3.0--0.4.0.sql.  At the release of 0.4.0 that file is committed to src/update/
-- as it is and this directory goes: released scripts are never rebuilt.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.4.0'" to load this file. \quit

-- First of all: resolve every name in this script without the installer's schemas.  A
-- database installed before 0.4.0 records the extension in the schema that was first on the
-- installer's search_path (public, or a "$user" schema), and PostgreSQL runs an update script
-- with that schema as search_path: an unqualified call to a built-in that takes "any" would
-- find a same-named function planted there.  (The SET lasts until the end of this script.)
SET search_path = pg_catalog, pg_temp;
