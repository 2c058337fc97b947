// `/terms` and `/privacy`: the operator's Terms of Service and Privacy Policy (GET /api/legal/<document>), written
// in Markdown. react-markdown renders it to React elements without raw HTML (`skipHtml`), and its default URL
// filter drops `javascript:` and other unsafe links, so an operator's file cannot inject script under the CSP.
import { Alert, Anchor, Container, Loader, Stack, Text, Typography } from '@mantine/core';
import { useEffect, useState } from 'react';
import Markdown from 'react-markdown';
import { Link } from 'react-router-dom';
import type { LegalDocumentDto, LegalDocumentKind } from '@optionpilot/server/contract';
import { api, errorMessage } from '../../api/client';
import { BrandMark } from '../../components/BrandMark';
import { formatIstDate } from '../dashboard/display';
import { usePageTitle } from '../../lib/usePageTitle';

const TITLES: Record<LegalDocumentKind, string> = {
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
};

export function LegalPage({ document }: { document: LegalDocumentKind }) {
  usePageTitle(TITLES[document]);
  const [loaded, setLoaded] = useState<{ document: LegalDocumentKind; dto: LegalDocumentDto } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    api
      .get<LegalDocumentDto>(`/api/legal/${document}`, { signal: controller.signal })
      .then((dto) => setLoaded({ document, dto }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(err, `Could not load the ${TITLES[document]}`));
      });
    return () => controller.abort();
  }, [document]);

  const dto = loaded?.document === document ? loaded.dto : null;
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <BrandMark />
        {error && (
          <Alert color="red" role="alert" title={`${TITLES[document]} unavailable`}>
            {error}
          </Alert>
        )}
        {!dto && !error && <Loader aria-label={`Loading the ${TITLES[document]}`} />}
        {dto && (
          <article aria-label={dto.title}>
            <Typography>
              <Markdown skipHtml>{dto.markdown}</Markdown>
            </Typography>
            {dto.updatedAt && (
              <Text size="sm" c="dimmed" mt="lg">
                Last updated {formatIstDate(dto.updatedAt)}
              </Text>
            )}
          </article>
        )}
        <Anchor component={Link} to="/">
          Back to home
        </Anchor>
      </Stack>
    </Container>
  );
}
