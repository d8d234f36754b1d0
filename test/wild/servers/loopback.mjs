// Loaded with `node --import` before a server that listens on every interface by itself (the
// official pdf and everything servers): its listen call is narrowed to 127.0.0.1.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (port, ...rest) {
  if (typeof port === 'number' || typeof port === 'string') {
    const callback = rest.find((arg) => typeof arg === 'function');
    return listen.call(this, Number(port), '127.0.0.1', callback);
  }
  return listen.call(this, port, ...rest);
};
