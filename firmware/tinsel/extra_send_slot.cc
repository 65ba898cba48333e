// The marker of an image that uses tinselSendSlotExtra (tinsel.h refers to it from there alone):
// its v2 start-up sees it defined and keeps slot 1 back from receiving.
extern "C" {
extern const unsigned char tessera_tinsel_extra_send_slot;
const unsigned char tessera_tinsel_extra_send_slot = 1;
}
