// Shows an image the API serves only to signed-in users (UPI QR, payment screenshots) through a blob: URL, revoked
// when the source changes or the component unmounts.
import { useEffect, useState } from 'react';
import { getBlob } from '../api/binary';

export interface ProtectedImage {
  src: string | null;
  error: string | null;
}

export function useProtectedImage(path: string | null): ProtectedImage {
  const [image, setImage] = useState<ProtectedImage>({ src: null, error: null });
  useEffect(() => {
    if (!path) {
      setImage({ src: null, error: null });
      return;
    }
    let url: string | null = null;
    let current = true;
    getBlob(path)
      .then((blob) => {
        if (!current) return;
        url = URL.createObjectURL(blob);
        setImage({ src: url, error: null });
      })
      .catch(() => current && setImage({ src: null, error: 'The image could not be loaded.' }));
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return image;
}
