-- load_focus stores its lines by PostgreSQL's own INSERT: a partition bound, an exclusion
-- constraint, a deferred foreign key, BEFORE ROW triggers and a restrictive policy on spend act on
-- a load exactly as on a plain INSERT of the same line.  Each case shows the load and the INSERT.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql

-- stage(resource, cost, start, end, provider): one line staged after the header (account 111, USD,
-- billing period the UTC month of start, Usage: the mandatory columns)
CREATE FUNCTION pg_temp.stage(resource text, cost numeric, t0 text DEFAULT '2025-05-01 00:00', t1 text DEFAULT '2025-05-01 01:00',
                              provider text DEFAULT 'AWS') RETURNS void LANGUAGE sql AS $$
  INSERT INTO llm_econ.focus_staging (line)
  SELECT 'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory'
   WHERE NOT EXISTS (SELECT FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER);
  INSERT INTO llm_econ.focus_staging (line) VALUES (format('%s,%s,%s,%s,%s,%s,111,USD,%s,%s,Usage', cost, cost, t0, t1, provider, resource,
    to_char(date_trunc('month', t0::timestamp), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(date_trunc('month', t0::timestamp) + interval '1 month', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
$$;
-- plain(tenant, resource, cost, start, end, provider): the plain INSERT of such a line
CREATE FUNCTION pg_temp.plain(who text, resource text, cost numeric, t0 text DEFAULT '2025-05-01 00:00',
                              t1 text DEFAULT '2025-05-01 01:00', provider text DEFAULT 'aws') RETURNS text LANGUAGE sql AS $$
  SELECT format($i$INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, provider, billed_cost,
                    effective_cost, resource_id, record, row_hash) VALUES (%L, %L, %L, %L, %s, %s, %L, '{}', md5(%L))$i$,
                who, t0, t1, provider, cost, cost, resource, resource || t0)
$$;

-- 1. spend attached as the partition of tenant alice of a table partitioned by tenant: bob's lines
-- violate its bound, refused as the plain INSERT is; alice's are stored.
CREATE TABLE regress_spend_by_tenant (LIKE spend) PARTITION BY LIST (tenant);
ALTER TABLE regress_spend_by_tenant ATTACH PARTITION spend FOR VALUES IN ('alice');
SELECT pg_temp.stage('p-' || i, i) FROM generate_series(1, 20) AS i;
SELECT pg_temp.error_code($$SELECT * FROM load_focus(tenant => 'bob')$$) AS load;
SELECT pg_temp.error_code(pg_temp.plain('bob', 'p-1', 1)) AS plain_insert;
SELECT count(*) AS stored, (SELECT count(*) FROM focus_staging) AS still_staged FROM spend;
SELECT * FROM load_focus(tenant => 'alice', source => 'partition');
SELECT tenant, count(*) AS stored FROM regress_spend_by_tenant GROUP BY 1;
ALTER TABLE regress_spend_by_tenant DETACH PARTITION spend;
DROP TABLE regress_spend_by_tenant;
DELETE FROM spend;

-- 2. An exclusion constraint: no two lines of resource x-1 with overlapping charge periods.  The
-- second of two such lines in one file is refused, as the plain INSERT of it is.
ALTER TABLE spend ADD CONSTRAINT regress_no_overlap
  EXCLUDE USING gist (tstzrange(charge_period_start, charge_period_end) WITH &&) WHERE (resource_id = 'x-1');
SELECT pg_temp.stage('x-1', 1, '2025-05-01 00:00', '2025-05-01 02:00');
SELECT pg_temp.stage('x-1', 2, '2025-05-01 01:00', '2025-05-01 03:00');
SELECT pg_temp.error_code($$SELECT * FROM load_focus()$$) AS load;
DELETE FROM focus_staging WHERE line LIKE '2,%';
SELECT * FROM load_focus(source => 'exclusion');
SELECT pg_temp.error_code(pg_temp.plain(current_user, 'x-1', 2, '2025-05-01 01:00', '2025-05-01 03:00')) AS plain_insert;
-- and a line of another resource, or not overlapping the stored one, is stored (mode append: the
-- stored line stays, so the constraint is checked against it)
SELECT pg_temp.stage('x-1', 3, '2025-05-01 02:00', '2025-05-01 03:00');
SELECT pg_temp.stage('x-2', 4, '2025-05-01 01:00', '2025-05-01 03:00');
SELECT * FROM load_focus(source => 'exclusion', mode => 'append');
SELECT resource_id, charge_period_start, billed_cost FROM spend ORDER BY billed_cost;
ALTER TABLE spend DROP CONSTRAINT regress_no_overlap;
DELETE FROM spend;

-- 3. A deferred foreign key (resource_id names a known resource): checked at COMMIT, not during the
-- load, for the load as for the plain INSERT; a resource added before COMMIT satisfies it.
CREATE TABLE regress_resource (id text PRIMARY KEY);
ALTER TABLE spend ADD CONSTRAINT regress_resource_fk FOREIGN KEY (resource_id) REFERENCES regress_resource (id)
  DEFERRABLE INITIALLY DEFERRED;
BEGIN;
SELECT pg_temp.stage('later', 1);
SELECT * FROM load_focus(source => 'deferred');
SELECT count(*) AS stored_until_commit FROM spend;
COMMIT;
SELECT count(*) AS stored, (SELECT count(*) FROM focus_staging) AS still_staged FROM spend;
DELETE FROM focus_staging;
BEGIN;
SELECT pg_temp.error_code(pg_temp.plain(current_user, 'later', 1)) AS plain_insert;
COMMIT;
BEGIN;
SELECT pg_temp.stage('later', 1);
SELECT * FROM load_focus(source => 'deferred');
INSERT INTO regress_resource VALUES ('later');
COMMIT;
SELECT resource_id, source FROM spend;
ALTER TABLE spend DROP CONSTRAINT regress_resource_fk;
DROP TABLE regress_resource;
DELETE FROM spend;

-- 4. BEFORE ROW triggers: one changes the row (region), one drops lines of a resource (RETURN
-- NULL).  The load stores what the trigger returns, and counts a dropped line as not inserted,
-- as the plain INSERT reports INSERT 0 0 for it.
CREATE FUNCTION pg_temp.shape_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.resource_id = 'drop-me' THEN RETURN NULL; END IF;
  NEW.region := 'set by trigger';
  RETURN NEW;
END $$;
CREATE TRIGGER regress_shape_row BEFORE INSERT ON spend FOR EACH ROW EXECUTE FUNCTION pg_temp.shape_row();
SELECT pg_temp.stage('keep-me', 1);
SELECT pg_temp.stage('drop-me', 2);
SELECT * FROM load_focus(source => 'trigger', mode => 'append');
SELECT resource_id, region FROM spend ORDER BY resource_id;
INSERT INTO spend (tenant, charge_period_start, charge_period_end, provider, billed_cost, effective_cost, resource_id, record, row_hash)
  VALUES (current_user, '2025-05-02', '2025-05-03', 'aws', 3, 3, 'drop-me', '{}', 'h3'),
         (current_user, '2025-05-02', '2025-05-03', 'aws', 4, 4, 'plain', '{}', 'h4');
SELECT resource_id, region FROM spend ORDER BY resource_id;
DROP TRIGGER regress_shape_row ON spend;
DELETE FROM spend;

-- 5. A restrictive policy on spend (only aws lines may be written, and lines of region 'hidden'
-- are not seen): a role's load of an azure line is refused as its plain INSERT is; its aws lines
-- are stored.
CREATE ROLE regress_fx_ann;
GRANT SELECT, INSERT, DELETE ON spend TO regress_fx_ann;
GRANT USAGE ON SEQUENCE spend_id_seq, focus_staging_id_seq TO regress_fx_ann;
GRANT SELECT, INSERT, DELETE ON focus_staging TO regress_fx_ann;
CREATE POLICY regress_aws_only ON spend AS RESTRICTIVE
  USING (region IS DISTINCT FROM 'hidden') WITH CHECK (provider OPERATOR(pg_catalog.=) 'aws');
SET ROLE regress_fx_ann;
SELECT pg_temp.stage('r-1', 1);
SELECT pg_temp.stage('r-2', 2, provider => 'Microsoft');
SELECT pg_temp.error_code($$SELECT * FROM load_focus()$$) AS load;
SELECT pg_temp.error_code(pg_temp.plain('regress_fx_ann', 'r-2', 2, provider => 'azure')) AS plain_insert;
DELETE FROM focus_staging WHERE line LIKE '%Microsoft%';
SELECT * FROM load_focus(source => 'policy');
RESET ROLE;
SELECT tenant, resource_id, provider FROM spend;
DROP POLICY regress_aws_only ON spend;
DELETE FROM spend;
DELETE FROM focus_staging;
DROP OWNED BY regress_fx_ann;
DROP ROLE regress_fx_ann;
