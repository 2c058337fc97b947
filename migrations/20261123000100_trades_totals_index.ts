import type { Knex } from 'knex';

// The dashboard's statistics (GET /api/user/stats, polled every 5 s per open dashboard, and the user:stats push)
// aggregate one user's closed trades. With every column the aggregate reads in the index, SQLite and PostgreSQL
// answer it from the index alone instead of visiting each trade row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trades', (t) => {
    t.index(['user_id', 'status', 'closed_at', 'pnl_paise'], 'trades_user_totals_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trades', (t) => {
    t.dropIndex(['user_id', 'status', 'closed_at', 'pnl_paise'], 'trades_user_totals_index');
  });
}
