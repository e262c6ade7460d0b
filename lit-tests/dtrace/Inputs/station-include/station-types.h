/* Included by station.d through the -I directory. */
#define PORT_T unsigned short
typedef struct station_peer {
	int fd;
} station_peer_t;
