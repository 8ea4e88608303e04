-- guard.sql (stateful): the import lock table.
-- Imports of one provider run one at a time.  They serialise on a row of this owner-only
-- table, never on an advisory lock key (any role can take those and block imports for ever).
-- The row is locked by a trigger that fires only on INSERT into price_snapshot, so only roles
-- allowed to insert prices can take it, and no SECURITY DEFINER function is callable by PUBLIC.
CREATE TABLE llm_econ.import_lock (
    provider  text PRIMARY KEY
);
