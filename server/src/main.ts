// Process entry (bundled to server/dist/main.js): config → database (migrated) → listen → graceful shutdown.
import { assertProductionReady, ConfigError, loadConfig, type Config } from './config';
import { startServer } from './app';
import { createLogger } from './logger';

/**
 * The validated configuration, or exit 1 with the message naming each invalid variable (in production, also each
 * operator detail still at its placeholder).
 */
function configOrExit(): Config {
  try {
    const config = loadConfig();
    assertProductionReady(config);
    return config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger({ level: config.logLevel });
  const server = await startServer(config, { logger });
  logger.info(
    { url: server.url, dataDir: config.dataDir, database: server.deps.db.dialect },
    `OptionPilot listening on ${server.url}`,
  );
  if (config.publicUrl !== server.url) logger.info(`public URL: ${config.publicUrl}`);
  if (!config.smtpUrl) {
    logger.warn(
      config.resetLinkInResponse
        ? 'SMTP_URL is not set: password-reset links are logged and returned by the API (test mode, for development only)'
        : 'SMTP_URL is not set: password-reset e-mails cannot be sent; reset passwords with `npm run set-password`',
    );
  }
  if (!config.razorpay) logger.warn('Razorpay keys are not set: payments run in test mode');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A hung close must not keep the process alive forever.
    const forced = setTimeout(() => {
      logger.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    forced.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `OptionPilot failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
