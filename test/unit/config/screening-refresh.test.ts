/** SCREENING_REFRESH_SECONDS: the documented setting of how fresh batch screening's data is. */
import { ConfigError, loadConfig } from '../../../shared/config';
import { TABLES, tableEnvVar } from '../../../shared/tables/definitions';

const tables = Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), `test-${t.id}`]));

it('defaults to 4 seconds', () => {
  expect(loadConfig({ ...tables }).screening.refreshSeconds).toBe(4);
});

it('takes the value set', () => {
  expect(loadConfig({ ...tables, SCREENING_REFRESH_SECONDS: '30' }).screening.refreshSeconds).toBe(30);
});

it.each(['0', '-5', '1.5', 'soon'])('refuses %s at start', (value) => {
  expect(() => loadConfig({ ...tables, SCREENING_REFRESH_SECONDS: value })).toThrow(ConfigError);
});
