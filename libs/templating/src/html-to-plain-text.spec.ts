import { htmlToPlainText } from './html-to-plain-text.js';

const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('htmlToPlainText: a readable plain-text alternative of an HTML body', () => {
  it('a link is kept as "text [url]"', () => {
    expect(htmlToPlainText('<p>Read <a href="https://blog.test/post?id=1&amp;x=2">our post</a> today.</p>')).toBe(
      'Read our post [https://blog.test/post?id=1&x=2] today.',
    );
  });

  it('a link whose text is its url is written once', () => {
    expect(htmlToPlainText('<a href="https://blog.test/">https://blog.test/</a>')).toBe('https://blog.test/');
  });

  it('an in-page anchor link keeps only its text', () => {
    expect(htmlToPlainText('<a href="#top">Back to top</a>')).toBe('Back to top');
  });

  it('an image becomes its alt text and never its base64 data', () => {
    const out = htmlToPlainText(`<p>Before <img src="${PIXEL}" alt="Company logo"> after <img src="${PIXEL}"></p>`);
    expect(out).toBe('Before Company logo after');
    expect(out).not.toContain('base64');
  });

  it('an image inside a link gives "alt [url]"', () => {
    expect(htmlToPlainText('<a href="https://shop.test/"><img src="https://cdn.test/b.png" alt="Shop now"></a>')).toBe(
      'Shop now [https://shop.test/]',
    );
  });

  it('head, style and script contents are dropped', () => {
    const out = htmlToPlainText(
      '<html><head><title>T</title><style>p{color:red}</style></head><body><script>alert(1)</script><p>Body</p></body></html>',
    );
    expect(out).toBe('Body');
  });

  it('paragraphs, line breaks and lists stay readable', () => {
    expect(htmlToPlainText('<p>One</p><p>Two<br>Three</p><ul><li>a</li><li>b</li></ul>')).toBe(
      'One\n\nTwo\nThree\n\n * a\n * b',
    );
  });

  it('layout table cells become separate lines instead of running together', () => {
    expect(htmlToPlainText('<table><tr><td>Left</td><td>Right</td></tr></table>')).toBe('Left\nRight');
  });

  it('entities are decoded', () => {
    expect(htmlToPlainText('<p>Tom &amp; Jerry &lt;3 &#39;x&#39;</p>')).toBe("Tom & Jerry <3 'x'");
  });

  it('long lines wrap at 78 characters by default, or as configured', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    expect(
      Math.max(
        ...htmlToPlainText(`<p>${words}</p>`)
          .split('\n')
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(78);
    expect(htmlToPlainText(`<p>${words}</p>`, { wordwrap: false })).toBe(words);
  });
});
