// The fake's stand-in for checkout.razorpay.com/v1/checkout.js: defines `window.Razorpay` with the options
// OptionPilot passes (web/src/features/payment/razorpayCheckout.ts). `open()` shows a plain full-screen dialog with
// the amount and two buttons; Pay asks the fake (`POST /checkout/pay`) to complete the payment and hands the three
// signed fields to `options.handler`, Cancel calls `options.modal.ondismiss`. Kept to ES2017 and the bare DOM so it
// runs in any browser without a build step.

/** The script text; `origin` is the fake's own origin (where Pay posts). */
export function checkoutScript(origin: string): string {
  // JSON.stringify quotes and escapes the origin, so a hostile Host header cannot break out of the string.
  return `(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};

  function rupees(paise) {
    var value = Number(paise) / 100;
    return '\\u20B9' + value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function element(tag, text, css) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    if (css) node.style.cssText = css;
    return node;
  }

  // Razorpay's refusals carry { error: { description } }; anything else is shown as the status line.
  function failure(response, text) {
    var message = 'Payment failed (HTTP ' + response.status + ')';
    try {
      var body = JSON.parse(text);
      if (body && body.error && body.error.description) message = body.error.description;
    } catch (ignored) {
      // not JSON: keep the status line
    }
    return new Error(message);
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) throw new TypeError('Razorpay must be called with new');
    if (!options || typeof options.key !== 'string' || typeof options.order_id !== 'string')
      throw new TypeError('Razorpay: key and order_id are required');
    this.options = options;
    this.overlay = null;
  }

  Razorpay.prototype.open = function () {
    if (this.overlay) return;
    var self = this;
    var opts = this.options;
    var overlay = element(
      'div',
      '',
      'position:fixed;top:0;left:0;right:0;bottom:0;z-index:2147483647;display:flex;align-items:center;' +
        'justify-content:center;background:rgba(0,0,0,0.6);font-family:sans-serif'
    );
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'Razorpay Checkout');
    var panel = element('div', '', 'background:#fff;color:#111;padding:24px;border-radius:8px;min-width:280px');
    panel.appendChild(element('h2', opts.name || 'Razorpay', 'margin:0 0 8px'));
    if (opts.description) panel.appendChild(element('p', opts.description, 'margin:0 0 8px'));
    panel.appendChild(element('p', rupees(opts.amount), 'font-size:24px;font-weight:bold;margin:0 0 16px'));
    var error = element('p', '', 'color:#b00020;margin:0 0 16px');
    error.setAttribute('role', 'alert');
    error.hidden = true;
    panel.appendChild(error);
    var pay = element('button', 'Pay', 'margin-right:8px');
    var cancel = element('button', 'Cancel');
    pay.type = 'button';
    cancel.type = 'button';
    panel.appendChild(pay);
    panel.appendChild(cancel);
    overlay.appendChild(panel);

    function close() {
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
      self.overlay = null;
    }
    function busy(on) {
      pay.disabled = on;
      cancel.disabled = on;
    }

    cancel.addEventListener('click', function () {
      close();
      if (opts.modal && typeof opts.modal.ondismiss === 'function') opts.modal.ondismiss();
    });
    pay.addEventListener('click', function () {
      busy(true);
      error.hidden = true;
      fetch(ORIGIN + '/checkout/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: opts.key, order_id: opts.order_id })
      })
        .then(function (response) {
          return response.text().then(function (text) {
            if (!response.ok) throw failure(response, text);
            return JSON.parse(text);
          });
        })
        // The handler runs outside the error branch: an exception in the app's handler is the app's, not a
        // failed payment.
        .then(
          function (result) {
            close();
            opts.handler(result);
          },
          function (err) {
            busy(false);
            error.textContent = err && err.message ? err.message : String(err);
            error.hidden = false;
          }
        );
    });

    document.body.appendChild(overlay);
    this.overlay = overlay;
    pay.focus();
  };

  window.Razorpay = Razorpay;
})();
`;
}
