import type { Knex } from 'knex';

export const BUILT_IN_STRATEGY = {
  code: 'consecutive-candle-breakout',
  name: 'Consecutive-candle breakout',
  description:
    'Buys a call (CE, one strike in the money) when N consecutive candles each rise by at least the minimum ' +
    'movement and the price then breaks the last high plus the entry offset; buys a put (PE) on the mirror image. ' +
    'Exits at the stop loss, the target, a trailing stop once in profit, or the square-off time.',
  type: 'BOTH',
  params: {
    entryCondition:
      'N consecutive candles in one direction, each moving at least minMovement points; trigger = last high + entryOffset (CALL) or last low - entryOffset (PUT), armed for the next candle',
    exitCondition:
      'stop loss, target, trailing stop after stopLoss points of gain, square-off time, daily loss limit',
    stopLoss: 20,
    target: 40,
    maxLoss: 5000,
    orderType: 'SLM',
  },
};

// The strategy catalogue shown to users (white-box) and managed by admins. Parameters are JSON text
// (spec: entryCondition, exitCondition, stopLoss, target, maxLoss, orderType). The built-in one is seeded.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('strategies', (t) => {
    t.increments('id');
    t.string('code', 64).notNullable().unique();
    t.string('name', 100).notNullable();
    t.text('description').notNullable();
    t.enu('type', ['CE', 'PE', 'BOTH']).notNullable().defaultTo('BOTH');
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('built_in').notNullable().defaultTo(false);
    t.text('params').notNullable().defaultTo('{}');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  const now = Date.now();
  await knex('strategies').insert({
    code: BUILT_IN_STRATEGY.code,
    name: BUILT_IN_STRATEGY.name,
    description: BUILT_IN_STRATEGY.description,
    type: BUILT_IN_STRATEGY.type,
    active: true,
    built_in: true,
    params: JSON.stringify(BUILT_IN_STRATEGY.params),
    created_at: now,
    updated_at: now,
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('strategies');
}
