#ifndef FAKE_CLIENT_H
#define FAKE_CLIENT_H
#endif
