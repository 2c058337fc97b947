import type { Knex } from 'knex';

// What the engine must remember across a restart besides trades and orders: the simulated market's last instant
// and index level, so a restarted simulation resumes where it stopped (engine time never goes backwards and open
// positions are not stopped out by a price jump).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('engine_state', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('engine_state');
}
