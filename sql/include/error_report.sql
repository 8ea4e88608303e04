-- error_report.sql: pg_temp.error_report(statement), included by the tests that show errors (\i sql/include/error_report.sql).
-- A statement's error as psql prints it, SQLSTATE included, with the CONTEXT line that says where
-- in the input the error is (the PL/pgSQL lines under it depend on function bodies, so not those).
CREATE FUNCTION pg_temp.error_report(statement text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  st text; msg text; det text; hint text; ctx text;
BEGIN
  EXECUTE statement;
  RETURN NEXT 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
                          hint = PG_EXCEPTION_HINT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN NEXT 'ERROR ' || st || ':  ' || msg;
  IF det <> '' THEN RETURN NEXT 'DETAIL:  ' || det; END IF;
  IF hint <> '' THEN RETURN NEXT 'HINT:  ' || hint; END IF;
  ctx := split_part(ctx, E'\n', 1);
  IF ctx <> '' AND ctx !~ '^(PL/pgSQL function|SQL statement|SQL function)' THEN RETURN NEXT 'CONTEXT:  ' || ctx; END IF;
END $$;
